-- Checks a database Benchmarks/growth-postgres.sql grew: prints one line per broken invariant, nothing when all hold
-- (the kept tallies of packages, scores, quizzes and players against a recount, as PostgresStore's testing support
-- recounts them; one ranked play per player and package; one daily play per player and day; each finished play's
-- score and quiz time the sum of its attempts'; no trigger left disabled). Foreign keys are the database's own.
-- Usage: psql -X -q -A -t -f Benchmarks/growth-check-postgres.sql URL
SELECT 'package ' || package.id || ': kept plays/attempts/solves ' || t.plays || '/' || t.server_attempts || '/'
       || t.server_solves || ', counted ' || COALESCE(p.plays, 0) || '/' || COALESCE(a.attempts, 0) || '/'
       || COALESCE(a.solves, 0)
FROM package
LEFT JOIN package_tally t ON t.package_id = package.id
LEFT JOIN (SELECT package_id, COUNT(*) AS plays FROM play GROUP BY package_id) p ON p.package_id = package.id
LEFT JOIN (SELECT play.package_id, COUNT(*) AS attempts, COUNT(*) FILTER (WHERE attempt.correct) AS solves
           FROM attempt JOIN play ON play.id = attempt.play_id WHERE play.player_id IS NOT NULL
           GROUP BY play.package_id) a ON a.package_id = package.id
WHERE t.package_id IS NULL OR t.plays <> COALESCE(p.plays, 0) OR t.server_attempts <> COALESCE(a.attempts, 0)
   OR t.server_solves <> COALESCE(a.solves, 0);
SELECT 'scores of package ' || package_id || ' at ' || score || ': kept ' || kept || ', counted ' || counted
FROM (
    SELECT package_id, score, SUM(kept) AS kept, SUM(counted) AS counted FROM (
        SELECT package_id, score, plays AS kept, 0 AS counted FROM leaderboard_score
        UNION ALL
        SELECT package_id, score, 0, 1 FROM play
        WHERE ranked AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
    ) u GROUP BY package_id, score
) s WHERE kept <> counted;
SELECT 'quiz ' || quiz_id || ' at stage ' || stage || ': kept ' || ka || '/' || ks || '/' || kh
       || ', counted ' || ca || '/' || cs || '/' || ch
FROM (
    SELECT quiz_id, stage, SUM(ka) AS ka, SUM(ks) AS ks, SUM(kh) AS kh, SUM(ca) AS ca, SUM(cs) AS cs, SUM(ch) AS ch
    FROM (
        SELECT quiz_id, stage, attempts AS ka, solved AS ks, hinted AS kh, 0 AS ca, 0 AS cs, 0 AS ch
        FROM quiz_stage_tally
        UNION ALL
        SELECT quiz_id, stage_reached, 0, 0, 0, 1, CASE WHEN correct THEN 1 ELSE 0 END,
               CASE WHEN hints_used > 0 THEN 1 ELSE 0 END
        FROM attempt
    ) u GROUP BY quiz_id, stage
) s WHERE ka <> ca OR ks <> cs OR kh <> ch;
SELECT 'player ' || player.id || ': kept plays/points/played/solved ' || t.plays || '/' || t.points || '/' || t.played
       || '/' || t.solved || ', counted ' || COALESCE(p.plays, 0) || '/' || COALESCE(p.points, 0) || '/'
       || COALESCE(a.played, 0) || '/' || COALESCE(a.solved, 0)
FROM player
LEFT JOIN player_tally t ON t.player_id = player.id
LEFT JOIN (SELECT player_id, COUNT(*) AS plays, COALESCE(SUM(score), 0) AS points FROM play
           WHERE public_id IS NOT NULL GROUP BY player_id) p ON p.player_id = player.id
LEFT JOIN (SELECT play.player_id, COUNT(*) AS played, COUNT(*) FILTER (WHERE attempt.correct) AS solved
           FROM attempt JOIN play ON play.id = attempt.play_id WHERE play.public_id IS NOT NULL
           GROUP BY play.player_id) a ON a.player_id = player.id
WHERE COALESCE(t.plays, 0) <> COALESCE(p.plays, 0) OR COALESCE(t.points, 0) <> COALESCE(p.points, 0)
   OR COALESCE(t.played, 0) <> COALESCE(a.played, 0) OR COALESCE(t.solved, 0) <> COALESCE(a.solved, 0);
SELECT 'player ' || player_id || ' at stage ' || stage || ': kept ' || kept || ' solves, counted ' || counted
FROM (
    SELECT player_id, stage, SUM(kept) AS kept, SUM(counted) AS counted FROM (
        SELECT player_id, stage, solved AS kept, 0 AS counted FROM player_stage_tally
        UNION ALL
        SELECT play.player_id, attempt.stage_reached, 0, 1 FROM attempt JOIN play ON play.id = attempt.play_id
        WHERE play.player_id IS NOT NULL AND play.public_id IS NOT NULL AND attempt.correct
    ) u GROUP BY player_id, stage
) s WHERE kept <> counted;
SELECT 'ranked twice: package ' || package_id || ', player ' || player_id
FROM play WHERE ranked GROUP BY package_id, player_id HAVING COUNT(*) > 1;
SELECT 'daily twice: player ' || player_id || ', day ' || daily_day
FROM play WHERE daily_day IS NOT NULL GROUP BY player_id, daily_day HAVING COUNT(*) > 1;
SELECT 'play ' || play.id || ': score ' || play.score || ', attempts add up to ' || s.score
FROM play JOIN (SELECT play_id, SUM(score) AS score, SUM(seconds) AS seconds FROM attempt GROUP BY play_id) s
    ON s.play_id = play.id
WHERE play.public_id IS NOT NULL AND (play.score <> s.score OR abs(play.elapsed_seconds - s.seconds) > 0.05);
SELECT 'daily ' || day || ' has no quiz' FROM daily WHERE quiz_id IS NULL;
SELECT 'trigger ' || tgname || ' on ' || tgrelid::regclass || ' is disabled' FROM pg_trigger
WHERE NOT tgisinternal AND tgenabled = 'D';
