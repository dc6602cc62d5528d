-- Checks a database Benchmarks/growth-sqlite.sql grew: prints one line per broken invariant, nothing when all hold
-- (the kept tallies of packages, scores, quizzes and players against a recount, as QuizStore's TestingSupport.swift
-- recounts them; foreign keys; one ranked play per player and package; one daily play per player and day; each
-- finished play's score and quiz time the sum of its attempts'). Usage: sqlite3 DB < Benchmarks/growth-check-sqlite.sql
SELECT 'package ' || package.id || ': kept plays/attempts/solves ' || t.plays || '/' || t.serverAttempts || '/'
       || t.serverSolves || ', counted ' || COALESCE(p.plays, 0) || '/' || COALESCE(a.attempts, 0) || '/'
       || COALESCE(a.solves, 0)
FROM package
LEFT JOIN packageTally t ON t.packageId = package.id
LEFT JOIN (SELECT packageId, COUNT(*) AS plays FROM play GROUP BY packageId) p ON p.packageId = package.id
LEFT JOIN (SELECT play.packageId, COUNT(*) AS attempts, SUM(attempt.correct) AS solves
           FROM attempt JOIN play ON play.id = attempt.playId WHERE play.playerId IS NOT NULL
           GROUP BY play.packageId) a ON a.packageId = package.id
WHERE t.packageId IS NULL OR t.plays <> COALESCE(p.plays, 0) OR t.serverAttempts <> COALESCE(a.attempts, 0)
   OR t.serverSolves <> COALESCE(a.solves, 0);
SELECT 'scores of package ' || packageId || ' at ' || score || ': kept ' || kept || ', counted ' || counted
FROM (
    SELECT packageId, score, SUM(kept) AS kept, SUM(counted) AS counted FROM (
        SELECT packageId, score, plays AS kept, 0 AS counted FROM leaderboardScore
        UNION ALL
        SELECT packageId, score, 0, 1 FROM play
        WHERE ranked AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = play.playerId)
    ) GROUP BY packageId, score
) WHERE kept <> counted;
SELECT 'quiz ' || quizId || ' at stage ' || stage || ': kept ' || ka || '/' || ks || '/' || kh
       || ', counted ' || ca || '/' || cs || '/' || ch
FROM (
    SELECT quizId, stage, SUM(ka) AS ka, SUM(ks) AS ks, SUM(kh) AS kh, SUM(ca) AS ca, SUM(cs) AS cs, SUM(ch) AS ch
    FROM (
        SELECT quizId, stage, attempts AS ka, solved AS ks, hinted AS kh, 0 AS ca, 0 AS cs, 0 AS ch FROM quizStageTally
        UNION ALL
        SELECT quizId, stageReached, 0, 0, 0, 1, correct, hintsUsed > 0 FROM attempt
    ) GROUP BY quizId, stage
) WHERE ka <> ca OR ks <> cs OR kh <> ch;
SELECT 'foreign key: ' || "table" || ' row ' || rowid || ' -> ' || parent FROM pragma_foreign_key_check;
SELECT 'ranked twice: package ' || packageId || ', player ' || playerId
FROM play WHERE ranked GROUP BY packageId, playerId HAVING COUNT(*) > 1;
SELECT 'daily twice: player ' || playerId || ', day ' || dailyDay
FROM play WHERE dailyDay IS NOT NULL GROUP BY playerId, dailyDay HAVING COUNT(*) > 1;
SELECT 'play ' || play.id || ': score ' || play.score || ', attempts add up to ' || s.score
FROM play JOIN (SELECT playId, SUM(score) AS score, SUM(seconds) AS seconds FROM attempt GROUP BY playId) s
    ON s.playId = play.id
WHERE play.publicId IS NOT NULL AND (play.score <> s.score OR ABS(play.elapsedSeconds - s.seconds) > 0.05);
SELECT 'daily ' || day || ' is not a past day with a quiz' FROM daily
WHERE quizId IS NULL OR day >= strftime('%Y-%m-%d', 'now') AND number <> (SELECT MAX(number) FROM daily);
SELECT 'player ' || player.id || ': kept plays/points/played/solved ' || t.plays || '/' || t.points || '/' || t.played
       || '/' || t.solved || ', counted ' || COALESCE(p.plays, 0) || '/' || COALESCE(p.points, 0) || '/'
       || COALESCE(a.played, 0) || '/' || COALESCE(a.solved, 0)
FROM player
LEFT JOIN playerTally t ON t.playerId = player.id
LEFT JOIN (SELECT playerId, COUNT(*) AS plays, COALESCE(SUM(score), 0) AS points FROM play
           WHERE publicId IS NOT NULL GROUP BY playerId) p ON p.playerId = player.id
LEFT JOIN (SELECT play.playerId, COUNT(*) AS played, SUM(attempt.correct) AS solved
           FROM attempt JOIN play ON play.id = attempt.playId WHERE play.publicId IS NOT NULL
           GROUP BY play.playerId) a ON a.playerId = player.id
WHERE COALESCE(t.plays, 0) <> COALESCE(p.plays, 0) OR COALESCE(t.points, 0) <> COALESCE(p.points, 0)
   OR COALESCE(t.played, 0) <> COALESCE(a.played, 0) OR COALESCE(t.solved, 0) <> COALESCE(a.solved, 0);
SELECT 'player ' || playerId || ' at stage ' || stage || ': kept ' || kept || ' solves, counted ' || counted
FROM (
    SELECT playerId, stage, SUM(kept) AS kept, SUM(counted) AS counted FROM (
        SELECT playerId, stage, solved AS kept, 0 AS counted FROM playerStageTally
        UNION ALL
        SELECT play.playerId, attempt.stageReached, 0, 1 FROM attempt JOIN play ON play.id = attempt.playId
        WHERE play.playerId IS NOT NULL AND play.publicId IS NOT NULL AND attempt.correct
    ) GROUP BY playerId, stage
) WHERE kept <> counted;
