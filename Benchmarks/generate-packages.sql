-- Grows a freshly seeded uquiz database (8 packages) to 100,000: 99,992 generated user packages, one quiz with three
-- areas each. Used by run.sh (through sqlite3) and by StoreBenchmarks (through GRDB).
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99991)
INSERT INTO package (shareCode, seedId, origin, title, maker, level, language, createdAt)
SELECT 'ZZ' || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (i / 27000) % 30 + 1, 1)
            || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (i / 900) % 30 + 1, 1)
            || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (i / 30) % 30 + 1, 1)
            || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', i % 30 + 1, 1),
       NULL, 'user', 'Generated package ' || i, 'bench',
       CASE i % 3 WHEN 0 THEN 'beginner' WHEN 1 THEN 'intermediate' ELSE 'expert' END,
       CASE i % 2 WHEN 0 THEN 'en' ELSE 'ko' END, '2026-11-22T00:00:00Z'
FROM n;
INSERT INTO quiz (packageId, position, catalogKey, tmdbId, title, originalTitle, releaseDate, genreIds, posterPath,
                  posterSource, gridColumns, gridRows, gridAreaSize, gridMargin)
SELECT id, 0, 'tmdb-27205', 27205, 'Inception', 'Inception', '2010-07-15', '[]', '/4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg',
       'tmdb', 50, 75, 5, 2
FROM package WHERE maker = 'bench';
INSERT INTO area (quizId, stage, centreRow, centreColumn)
SELECT q.id, s.stage, s.centreRow, s.centreColumn
FROM quiz q JOIN package p ON p.id = q.packageId AND p.maker = 'bench'
CROSS JOIN (SELECT 1 AS stage, 20 AS centreRow, 20 AS centreColumn
            UNION ALL SELECT 2, 40, 30 UNION ALL SELECT 3, 60, 10) s;
COMMIT;
