-- Grows a migrated and seeded uquiz PostgreSQL database to a large server (GitHub issue "Cost that does not grow with
-- the data"; Benchmarks/growth.sh): the same rows as Benchmarks/growth-sqlite.sql, which says what they are, in the
-- snake_case schema of PostgresStore's Migrations.swift. Set-based: generate_series into temporary tables, then one
-- INSERT ... SELECT per table.
--
-- The caller creates the sizes first, one row, in the same session:
--   CREATE TEMP TABLE growth_size (packages integer, makers integer, players integer, plays integer, hot_plays integer,
--                                  warm_packages integer, warm_plays integer, heavy_player_plays integer,
--                                  daily_days integer);
--   INSERT INTO growth_size VALUES (50000, 5000, 50000, 500000, 100000, 5, 10000, 5000, 365);   -- the full size
-- then runs this file (psql -v ON_ERROR_STOP=1; no psql meta-commands here).
--
-- Fixed and findable: the hot package HQT234, the warm ones WARM22, WARM23, ...; "Growth heavy player" with the bearer
-- token `growth-heavy-player-token-xxxxxxxxxxxxxxxxx` and "Growth maker" (owner of the hot and warm packages and of
-- every 100th one) with `growth-maker-token-xxxxxxxxxxxxxxxxxxxxxxxx`; each generated player i (from 0) has the token
-- `growth-player-` followed by i in 29 digits (a token is 43 base64url characters).
--
-- The kept tallies (package_tally, leaderboard_score, quiz_stage_tally, player_tally, player_stage_tally): the play and attempt triggers are disabled
-- while the plays and attempts go in, and the tallies are then added to from those rows in a few set-based statements,
-- in the same transaction (nothing else sees the tables meanwhile: ALTER TABLE locks them). Row by row, the triggers
-- would update the hot package's tally row 600,000 times in one transaction, and PostgreSQL walks every version of a
-- row its own transaction made before each update, so that costs the square of the plays. The ban trigger is on when
-- the bans go in. Benchmarks/growth-check-postgres.sql recounts. Takes about three minutes at full size (2 cores).
BEGIN;
SET LOCAL work_mem = '256MB';

CREATE TEMP TABLE g_param AS
SELECT packages::bigint AS packages, makers::bigint AS makers, players::bigint AS players, plays::bigint AS plays,
       hot_plays::bigint AS hot_plays, warm_packages::bigint AS warm_packages, warm_plays::bigint AS warm_plays,
       heavy_player_plays::bigint AS heavy_player_plays, daily_days::bigint AS daily_days,
       LEAST(warm_packages, GREATEST(packages - 1, 0))::bigint AS warm,
       extract(epoch FROM now())::bigint AS now_sec,
       extract(epoch FROM now())::bigint / 86400 * 86400 AS today_sec
FROM growth_size LIMIT 1;
CREATE TEMP TABLE g_assert (what text, ok boolean CHECK (ok));
INSERT INTO g_assert SELECT 'sizes', packages >= 1 AND players >= 1 AND makers >= 0 AND warm_packages <= 30 FROM g_param;

CREATE FUNCTION pg_temp.ts(sec bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT to_char(to_timestamp(sec) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') $$;
-- A Weyl sequence: k times an odd multiplier, modulo 2^32, as a fraction in [0, 1).
CREATE FUNCTION pg_temp.u(k bigint, m bigint, c bigint) RETURNS float8 LANGUAGE sql IMMUTABLE AS
$$ SELECT ((k * m + c) % 4294967296)::float8 / 4294967296 $$;

CREATE TEMP TABLE g_pos (p bigint PRIMARY KEY);
INSERT INTO g_pos VALUES (0), (1), (2), (3), (4);

CREATE TEMP TABLE g_word (list text, k bigint, w text, PRIMARY KEY (list, k));
INSERT INTO g_word (list, k, w)
SELECT 'adj', n - 1, w FROM unnest(ARRAY['Midnight','Dark','Silent','Golden','Summer','Winter','Classic','Forgotten',
  'Hidden','Late Night','Lost','Wild','Crazy','Easy','Impossible','Legendary','Cult','Animated','Korean','French',
  'Retro','Modern','Epic','Tiny','Secret','Starry','Rainy','Lonely','Happy','Night Owl','Spooky','Weekend','Family',
  'Ultimate','Underrated','Black and White','Neon','Sunday','Electric','Cozy']) WITH ORDINALITY AS t(w, n)
UNION ALL
SELECT 'noun', n - 1, w FROM unnest(ARRAY['Movies','Films','Classics','Posters','Heroes','Villains','Nights','Monsters',
  'Detectives','Westerns','Musicals','Comedies','Thrillers','Dreams','Stars','Knights','Kisses','Road Trips','Spies',
  'Robots','Ghosts','Love Stories','Blockbusters','Sequels','Cartoons','Night Shift','Adventures','Mysteries','Legends',
  'Cinema','Heists','Dragons','Cowboys','Aliens','Witches','Pirates','Sword Fights','Car Chases','Dance Numbers',
  'Rivals']) WITH ORDINALITY AS t(w, n)
UNION ALL
SELECT 'tail', n - 1, w FROM unnest(ARRAY['Quiz','Challenge','Marathon','Vol. 2','Edition','for Beginners','Deluxe',
  'Trivia','Test','Special']) WITH ORDINALITY AS t(w, n)
UNION ALL
SELECT 'ko1', n - 1, w FROM unnest(ARRAY['한밤의','추억의','숨은','전설의','여름밤','겨울','고전','요즘','최고의','무서운',
  '웃기는','슬픈','한국','프랑스','가족','주말','심야','흑백','낭만','액션']) WITH ORDINALITY AS t(w, n)
UNION ALL
SELECT 'ko2', n - 1, w FROM unnest(ARRAY['영화','명작','포스터','퀴즈','영화관','주인공','악당','괴물','탐정','로맨스',
  '코미디','애니메이션','스릴러','모험','전설','시리즈','영화 퀴즈','명장면','OST','감독']) WITH ORDINALITY AS t(w, n)
UNION ALL
SELECT 'first', n - 1, w FROM unnest(ARRAY['Mina','Jae','Alex','Sam','Yuna','Chris','Hana','Leo','Ji-woo','Maya',
  'Noah','Seo-yeon','Ethan','Min-jun','Olivia','Hyun','Lucas','Ara','Emma','Dong','Zoe','Tae','Liam','Soo','Ivy',
  'Joon','Nora','Kai','Eun','Max','Ruby','Hoon','Lena','Ben','Da-eun','Finn','Cleo','Woo','Iris','Theo'])
  WITH ORDINALITY AS t(w, n);

-- Players: the two fixed ones, then the generated ones (g_player.i from 0; the first `makers` publish).
INSERT INTO player (name, token_hash, created_at)
SELECT 'Growth heavy player', sha256(convert_to('growth-heavy-player-token-xxxxxxxxxxxxxxxxx', 'UTF8')),
       pg_temp.ts(now_sec - 400 * 86400)
FROM g_param
UNION ALL
SELECT 'Growth maker', sha256(convert_to('growth-maker-token-xxxxxxxxxxxxxxxxxxxxxxxx', 'UTF8')),
       pg_temp.ts(now_sec - 400 * 86400)
FROM g_param;
CREATE TEMP TABLE g_fixed AS
SELECT (SELECT id FROM player
        WHERE token_hash = sha256(convert_to('growth-heavy-player-token-xxxxxxxxxxxxxxxxx', 'UTF8'))) AS heavy_id,
       (SELECT id FROM player
        WHERE token_hash = sha256(convert_to('growth-maker-token-xxxxxxxxxxxxxxxxxxxxxxxx', 'UTF8'))) AS maker_id;
CREATE TEMP TABLE g_player (i bigint PRIMARY KEY, id bigint NOT NULL, name text NOT NULL);
WITH ins AS (
    INSERT INTO player (name, token_hash, created_at)
    SELECT (SELECT w FROM g_word WHERE list = 'first' AND k = (i * 7) % 40) || ' ' || (i % 9973 + 1),
           sha256(convert_to('growth-player-' || lpad(i::text, 29, '0'), 'UTF8')),
           pg_temp.ts(now_sec - 366 * 86400 - (i * 131) % (30 * 86400))
    FROM g_param, generate_series(0, g_param.players - 1) AS i
    ORDER BY i
    RETURNING id, name, token_hash
)
INSERT INTO g_player (i, id, name)
SELECT ROW_NUMBER() OVER (ORDER BY id) - 1, id, name FROM ins;

-- The seed's quizzes to copy, by language and poster source (k from 0).
CREATE TEMP TABLE g_movie AS
SELECT p.language AS lang, q.poster_source AS src,
       ROW_NUMBER() OVER (PARTITION BY p.language, q.poster_source ORDER BY q.id) - 1 AS k,
       q.catalog_key, q.tmdb_id, q.title, q.original_title, q.release_date, q.genre_ids, q.poster_path,
       q.grid_columns, q.grid_rows, q.grid_area_size, q.grid_margin
FROM quiz q JOIN package p ON p.id = q.package_id
WHERE p.origin = 'seed' AND q.grid_columns = 50 AND q.grid_rows = 75;
CREATE UNIQUE INDEX g_movie_key ON g_movie (lang, src, k);
CREATE TEMP TABLE g_movie_count AS SELECT lang, src, COUNT(*) AS n FROM g_movie GROUP BY lang, src;
INSERT INTO g_assert SELECT 'the seed has bundled posters in both languages',
    (SELECT COUNT(*) FROM g_movie_count WHERE src = 'bundled' AND lang IN ('en', 'ko')) = 2;

-- Packages (g_package.i from 0: 0 hot, 1..warm warm, the rest the tail).
CREATE TEMP TABLE g_package (
    i bigint PRIMARY KEY, id bigint, code text, title text, owner_id bigint, maker_name text, level text,
    language text, created_sec bigint, visibility text, src text, quiz_count bigint, movie_offset bigint);
WITH h AS (
    SELECT i,
           pg_temp.u(i, 2654435761, 11) AS u1, pg_temp.u(i, 2246822519, 13) AS u2,
           pg_temp.u(i, 3266489917, 17) AS u3, pg_temp.u(i, 668265263, 19) AS u4,
           pg_temp.u(i, 374761393, 23) AS u5, pg_temp.u(i, 1597334677, 29) AS u6,
           pg_temp.u(i, 3812015801, 31) AS u7, pg_temp.u(i, 2869860233, 37) AS u8,
           pg_temp.u(i, 1181783497, 41) AS u9, pg_temp.u(i, 3704542771, 43) AS u10,
           (i * 282475249 + 1000003) % 24300000 AS v
    FROM g_param, generate_series(0, g_param.packages - 1) AS i
),
shaped AS (
    SELECT h.*, g_param.warm, g_param.makers, g_param.now_sec,
           (i <= g_param.warm OR i % 100 = 50 OR g_param.makers = 0) AS big_maker,
           CASE WHEN i <= g_param.warm OR u2 < 0.7 THEN 'en' ELSE 'ko' END AS language,
           floor(g_param.makers * u1 * (1 + u1) / 2)::bigint AS maker_index
    FROM h, g_param
)
INSERT INTO g_package (i, code, title, owner_id, maker_name, level, language, created_sec, visibility, src, quiz_count,
                       movie_offset)
SELECT i,
       CASE WHEN i = 0 THEN 'HQT234'
            WHEN i <= warm THEN 'WARM2' || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', i::int, 1)
            -- A first character no seed code and no fixed code starts with, then v (unique) in base 30.
            ELSE substr('JKMNPQTVY3', (i % 10 + 1)::int, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (v / 810000 % 30 + 1)::int, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (v / 27000 % 30 + 1)::int, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (v / 900 % 30 + 1)::int, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (v / 30 % 30 + 1)::int, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', (v % 30 + 1)::int, 1) END,
       CASE WHEN i = 0 THEN 'Movies Everyone Knows, Late Night Edition'
            WHEN language = 'ko' THEN
                (SELECT w FROM g_word WHERE list = 'ko1' AND k = floor(u3 * 20)) || ' '
                || (SELECT w FROM g_word WHERE list = 'ko2' AND k = floor(u4 * 20))
                || CASE WHEN u5 < 0.5 THEN ' 퀴즈' ELSE ' ' || (i % 9 + 1) END
            WHEN u5 < 0.3 THEN
                (SELECT w FROM g_word WHERE list = 'adj' AND k = floor(u3 * 40)) || ' '
                || (SELECT w FROM g_word WHERE list = 'noun' AND k = floor(u4 * 40))
            WHEN u5 < 0.55 THEN
                'The ' || (SELECT w FROM g_word WHERE list = 'adj' AND k = floor(u3 * 40)) || ' '
                || (SELECT w FROM g_word WHERE list = 'noun' AND k = floor(u4 * 40)) || ' '
                || (SELECT w FROM g_word WHERE list = 'tail' AND k = floor(u6 * 10))
            WHEN u5 < 0.8 THEN
                (SELECT w FROM g_word WHERE list = 'noun' AND k = floor(u4 * 40)) || ' of the '
                || CASE WHEN u6 < 0.3 THEN 'Night' ELSE (SELECT w FROM g_word WHERE list = 'noun' AND k = floor(u3 * 40)) END
            ELSE
                (SELECT w FROM g_word WHERE list = 'adj' AND k = floor(u3 * 40)) || ' '
                || (SELECT w FROM g_word WHERE list = 'noun' AND k = floor(u4 * 40)) || ' '
                || (1960 + floor(u6 * 6)::int * 10) || 's'
       END,
       CASE WHEN big_maker THEN (SELECT maker_id FROM g_fixed)
            ELSE (SELECT id FROM g_player WHERE g_player.i = maker_index) END,
       CASE WHEN big_maker THEN 'Growth maker'
            ELSE (SELECT name FROM g_player WHERE g_player.i = maker_index) END,
       CASE WHEN i = 0 OR u6 < 0.4 THEN 'beginner' WHEN u6 < 0.75 THEN 'intermediate' ELSE 'expert' END,
       language,
       CASE WHEN i <= warm THEN now_sec - 360 * 86400 + i * 3600 ELSE now_sec - 3600 - floor(u7 * 365 * 86400)::bigint END,
       CASE WHEN i <= warm OR u8 < 0.8 THEN 'public' ELSE 'unlisted' END,
       CASE WHEN i <= warm OR u9 < 0.9
                 OR NOT EXISTS (SELECT 1 FROM g_movie_count c WHERE c.lang = language AND c.src = 'tmdb')
            THEN 'bundled' ELSE 'tmdb' END,
       CASE WHEN i <= warm THEN 5 ELSE 1 + floor(u10 * 5)::bigint END,
       floor(u3 * 1000)::bigint
FROM shaped ORDER BY i;

WITH ins AS (
    INSERT INTO package (share_code, seed_id, origin, title, maker, level, language, created_at)
    SELECT code, NULL, 'user', title, maker_name, level, language, pg_temp.ts(created_sec)
    FROM g_package ORDER BY i
    RETURNING id, share_code
)
UPDATE g_package SET id = ins.id FROM ins WHERE ins.share_code = g_package.code;
CREATE UNIQUE INDEX g_package_id ON g_package (id);
INSERT INTO publication (package_id, owner_id, visibility) SELECT id, owner_id, visibility FROM g_package ORDER BY i;
ANALYZE g_package;

-- Quizzes (consecutive seed movies of the package's language and source from its offset) and 3 areas each.
CREATE TEMP TABLE g_quiz (pi bigint, pos bigint, quiz_id bigint, PRIMARY KEY (pi, pos));
WITH ins AS (
    INSERT INTO quiz (package_id, position, catalog_key, tmdb_id, title, original_title, release_date, genre_ids,
                      poster_path, poster_source, grid_columns, grid_rows, grid_area_size, grid_margin)
    SELECT gp.id, pos.p, m.catalog_key, m.tmdb_id, m.title, m.original_title, m.release_date, m.genre_ids,
           m.poster_path, m.src, m.grid_columns, m.grid_rows, m.grid_area_size, m.grid_margin
    FROM g_package gp
    JOIN g_pos pos ON pos.p < gp.quiz_count
    JOIN g_movie_count c ON c.lang = gp.language AND c.src = gp.src
    JOIN g_movie m ON m.lang = gp.language AND m.src = gp.src AND m.k = (gp.movie_offset + pos.p) % c.n
    ORDER BY gp.i, pos.p
    RETURNING id, package_id, position
)
INSERT INTO g_quiz (pi, pos, quiz_id)
SELECT gp.i, ins.position, ins.id FROM ins JOIN g_package gp ON gp.id = ins.package_id;
ANALYZE g_quiz;
INSERT INTO g_assert SELECT 'every package has its quizzes',
    (SELECT COUNT(*) FROM g_quiz) = (SELECT SUM(quiz_count) FROM g_package);
INSERT INTO area (quiz_id, stage, centre_row, centre_column)
SELECT gq.quiz_id, s.stage, s.centre_row + gq.quiz_id % 7, s.centre_column + gq.quiz_id % 5
FROM g_quiz gq
CROSS JOIN (VALUES (1, 20, 20), (2, 40, 30), (3, 60, 10)) AS s (stage, centre_row, centre_column)
ORDER BY gq.quiz_id, s.stage;

-- Past daily quizzes: distinct quizzes of public tail packages with bundled posters; d = 1 is the oldest day and
-- d = days is yesterday (UTC).
CREATE TEMP TABLE g_daily (d bigint PRIMARY KEY, quiz_id bigint, pi bigint, pos bigint, day_sec bigint, day text);
INSERT INTO g_daily (d, quiz_id, pi, pos)
SELECT ROW_NUMBER() OVER (ORDER BY (gq.quiz_id * 2654435761) % 4294967296, gq.quiz_id), gq.quiz_id, gq.pi, gq.pos
FROM g_quiz gq JOIN g_package gp ON gp.i = gq.pi, g_param
WHERE gp.i > g_param.warm AND gp.visibility = 'public' AND gp.src = 'bundled'
ORDER BY (gq.quiz_id * 2654435761) % 4294967296, gq.quiz_id
LIMIT (SELECT daily_days FROM g_param);
UPDATE g_daily SET day_sec = (SELECT today_sec FROM g_param) - ((SELECT COUNT(*) FROM g_daily) - d + 1) * 86400;
UPDATE g_daily SET day = to_char(to_timestamp(day_sec) AT TIME ZONE 'UTC', 'YYYY-MM-DD');
INSERT INTO daily (day, language, number, quiz_id, chosen_at)
SELECT day, (SELECT p.language FROM quiz JOIN package p ON p.id = quiz.package_id WHERE quiz.id = g_daily.quiz_id), d,
       quiz_id, pg_temp.ts(day_sec + 1)
FROM g_daily ORDER BY d;

-- How the plays split: hot, warm, daily, heavy, tail (in that order of j).
CREATE TEMP TABLE g_seg AS
SELECT *, o_heavy + heavy_player_plays AS o_tail,
       GREATEST(0, plays - hot_plays - warm_total - daily_others - heavy_player_plays) AS tail,
       GREATEST(1, (heavy_player_plays - heavy_daily) * 4 / 5) AS heavy_distinct
FROM (
    SELECT *, o_daily + daily_others AS o_heavy
    FROM (
        SELECT *, hot_plays AS o_warm, hot_plays + warm_total AS o_daily, per_day * days AS daily_others
        FROM (
            SELECT g_param.*, warm * warm_plays AS warm_total, days,
                   CASE WHEN days > 0 THEN LEAST(plays / 20 / days, players) ELSE 0 END AS per_day,
                   GREATEST(0, LEAST(heavy_player_plays / 2, days - days / 5)) AS heavy_daily
            FROM g_param, (SELECT COUNT(*) AS days FROM g_daily) AS c
        ) a
    ) b
) c;

-- Plays, one row each: j, package (pi), player, daily day (d), finish time, attempts and the position of the first.
CREATE TEMP TABLE g_play (
    j bigint PRIMARY KEY, pi bigint NOT NULL, player_id bigint NOT NULL, player_name text NOT NULL, d bigint,
    finished_sec bigint NOT NULL, attempts bigint NOT NULL, first_pos bigint NOT NULL);
-- Hot: players drawn uniformly (about two plays each at full size).
INSERT INTO g_play (j, pi, player_id, player_name, d, finished_sec, attempts, first_pos)
SELECT k, 0, pl.id, pl.name, NULL,
       pk.created_sec + 600 + floor(pg_temp.u(k, 2246822519, 1) * (s.now_sec - pk.created_sec - 1200))::bigint,
       pk.quiz_count, 0
FROM g_seg s CROSS JOIN generate_series(0, s.hot_plays - 1) AS k
JOIN g_package pk ON pk.i = 0
JOIN g_player pl ON pl.i = floor(pg_temp.u(k, 2654435761, 1) * s.players)::bigint;
-- Warm.
INSERT INTO g_play (j, pi, player_id, player_name, d, finished_sec, attempts, first_pos)
SELECT s.o_warm + k, pk.i, pl.id, pl.name, NULL,
       pk.created_sec + 600 + floor(pg_temp.u(k, 2246822519, 3) * (s.now_sec - pk.created_sec - 1200))::bigint,
       pk.quiz_count, 0
FROM g_seg s CROSS JOIN generate_series(0, s.warm_total - 1) AS k
JOIN g_package pk ON pk.i = 1 + k / s.warm_plays
JOIN g_player pl ON pl.i = floor(pg_temp.u(k, 2654435761, 3) * s.players)::bigint;
-- Daily: per_day distinct players a day, one attempt at the day's quiz.
INSERT INTO g_play (j, pi, player_id, player_name, d, finished_sec, attempts, first_pos)
SELECT s.o_daily + k, gd.pi, pl.id, pl.name, gd.d,
       gd.day_sec + 30 + floor(pg_temp.u(k, 2246822519, 5) * 86000)::bigint, 1, gd.pos
FROM g_seg s CROSS JOIN generate_series(0, s.daily_others - 1) AS k
JOIN g_daily gd ON gd.d = k / s.per_day + 1
JOIN g_player pl ON pl.i = (gd.d * 7919 + k % s.per_day) % s.players;
-- The heavy player: daily plays on the days d % 5 <> 0, then plays of many packages (the hot one first), a fifth of
-- them a package it played before.
INSERT INTO g_play (j, pi, player_id, player_name, d, finished_sec, attempts, first_pos)
SELECT s.o_heavy + k, CASE WHEN gd.d IS NOT NULL THEN gd.pi ELSE pk.i END, f.heavy_id, 'Growth heavy player', gd.d,
       CASE WHEN gd.d IS NOT NULL
            THEN gd.day_sec + 30 + floor(pg_temp.u(k, 2246822519, 7) * 86000)::bigint
            ELSE pk.created_sec + 600
                 + floor(pg_temp.u(k, 2246822519, 7) * (s.now_sec - pk.created_sec - 1200))::bigint END,
       CASE WHEN gd.d IS NOT NULL THEN 1 ELSE pk.quiz_count END,
       CASE WHEN gd.d IS NOT NULL THEN gd.pos ELSE 0 END
FROM g_seg s CROSS JOIN g_fixed f CROSS JOIN generate_series(0, s.heavy_player_plays - 1) AS k
LEFT JOIN g_daily gd ON k < s.heavy_daily AND gd.d = (k / 4) * 5 + k % 4 + 1
LEFT JOIN g_package pk ON k >= s.heavy_daily
    AND pk.i = (((k - s.heavy_daily) % s.heavy_distinct) * 7919) % s.packages;
-- The long tail: packages and players both skewed (u squared) towards the first ones.
INSERT INTO g_play (j, pi, player_id, player_name, d, finished_sec, attempts, first_pos)
SELECT s.o_tail + k, pk.i, pl.id, pl.name, NULL,
       pk.created_sec + 600
       + floor(pg_temp.u(k, 2246822519, 9) * GREATEST(0, s.now_sec - pk.created_sec - 1200))::bigint,
       pk.quiz_count, 0
FROM g_seg s CROSS JOIN generate_series(0, s.tail - 1) AS k
JOIN g_package pk ON pk.i = CASE WHEN s.packages > s.warm + 1
    THEN s.warm + 1 + floor((s.packages - s.warm - 1) * pg_temp.u(k, 3266489917, 9) * pg_temp.u(k, 3266489917, 9))::bigint
    ELSE 0 END
JOIN g_player pl ON pl.i = floor(s.players * pg_temp.u(k, 2654435761, 9) * pg_temp.u(k, 2654435761, 9))::bigint;
ANALYZE g_play;

-- Attempts: one per quiz of each play (j, pos); outcome, stage, hint and seconds drawn, the score as Scoring.score
-- gives it for 3 stages and 20 s.
CREATE TEMP TABLE g_attempt (
    j bigint, pos bigint, quiz_id bigint, outcome text, stage bigint, hints bigint, seconds float8, score bigint,
    PRIMARY KEY (j, pos));
INSERT INTO g_attempt (j, pos, quiz_id, outcome, stage, hints, seconds, score)
SELECT j, pos, quiz_id, outcome, stage, hints, seconds,
       CASE WHEN outcome = 'solved'
            THEN (100 + 20 * (3 - stage) + round((100 * (20 - seconds) / 20)::numeric)::bigint) / (1 + hints)
            ELSE 0 END
FROM (
    SELECT j, pos, quiz_id, outcome, stage, hints,
           CASE outcome WHEN 'solved' THEN LEAST(19.9, (stage - 1) * 2 + 0.5 + floor(us * 120) / 10.0)
                        WHEN 'missed' THEN 20.0
                        ELSE (stage - 1) * 2 + 0.3 + floor(us * 40) / 10.0 END::float8 AS seconds
    FROM (
        SELECT j, pos, quiz_id, us,
               CASE WHEN uo < 0.62 THEN 'solved' WHEN uo < 0.88 THEN 'missed' ELSE 'skipped' END AS outcome,
               CASE WHEN uo >= 0.62 AND uo < 0.88 THEN 3 ELSE 1 + floor(ust * 3)::bigint END AS stage,
               CASE WHEN uh < 0.2 THEN 1 ELSE 0 END AS hints
        FROM (
            SELECT gp.j, p.p AS pos, gq.quiz_id,
                   pg_temp.u(gp.j * 8 + p.p, 668265263, 1) AS uo, pg_temp.u(gp.j * 8 + p.p, 374761393, 1) AS ust,
                   pg_temp.u(gp.j * 8 + p.p, 1597334677, 1) AS uh, pg_temp.u(gp.j * 8 + p.p, 3812015801, 1) AS us
            FROM g_play gp
            JOIN g_pos p ON p.p < gp.attempts
            JOIN g_quiz gq ON gq.pi = gp.pi AND gq.pos = gp.first_pos + p.p
        ) a
    ) b
) c
ORDER BY j, pos;
ANALYZE g_attempt;

-- Each play's score and quiz time, whether it is ranked (its player's first non-daily play of the package, unless
-- they own it), and its public id.
CREATE TEMP TABLE g_final (
    j bigint PRIMARY KEY, score bigint, elapsed float8, ranked boolean, reason text, public_id text, play_id bigint);
INSERT INTO g_final (j, score, elapsed, ranked, reason, public_id)
SELECT gp.j, sums.score, sums.elapsed,
       gp.d IS NULL AND r.rn = 1 AND gp.player_id <> pk.owner_id,
       CASE WHEN gp.d IS NOT NULL THEN NULL WHEN gp.player_id = pk.owner_id THEN 'maker'
            WHEN r.rn > 1 THEN 'answer_seen_in_play' END,
       'growth-' || lpad(gp.j::text, 9, '0')
FROM g_play gp
JOIN (SELECT j, SUM(score) AS score, round(SUM(seconds)::numeric, 1)::float8 AS elapsed FROM g_attempt GROUP BY j) sums
    ON sums.j = gp.j
JOIN g_package pk ON pk.i = gp.pi
LEFT JOIN (SELECT j, ROW_NUMBER() OVER (PARTITION BY pi, player_id ORDER BY finished_sec, j) AS rn
           FROM g_play WHERE d IS NULL) r ON r.j = gp.j;

-- The plays, in the order they finished (ids follow time), then their attempts, with the tally triggers off (see the
-- top): the tallies are added to from the new rows after.
ALTER TABLE play DISABLE TRIGGER play_tally_insert;
ALTER TABLE attempt DISABLE TRIGGER attempt_tally_insert;
CREATE TEMP TABLE g_play_id (j bigint PRIMARY KEY, play_id bigint NOT NULL);
WITH ins AS (
    INSERT INTO play (package_id, player, started_at, finished_at, score, public_id, player_id, ranked,
                      elapsed_seconds, daily_day, unranked_reason)
    SELECT pk.id, gp.player_name,
           pg_temp.ts(gp.finished_sec - floor(f.elapsed)::bigint - 3 * gp.attempts), pg_temp.ts(gp.finished_sec),
           f.score, f.public_id, gp.player_id, f.ranked, f.elapsed, gd.day, f.reason
    FROM g_play gp
    JOIN g_final f ON f.j = gp.j
    JOIN g_package pk ON pk.i = gp.pi
    LEFT JOIN g_daily gd ON gd.d = gp.d
    ORDER BY gp.finished_sec, gp.j
    RETURNING id, public_id
)
INSERT INTO g_play_id (j, play_id) SELECT substr(public_id, 8)::bigint, id FROM ins;
ANALYZE g_play_id;

INSERT INTO attempt (play_id, quiz_id, player, started_at, correct, seconds, stage_reached, hints_used, outcome, score)
SELECT pid.play_id, a.quiz_id, gp.player_name, pg_temp.ts(gp.finished_sec - 3 * (gp.attempts - a.pos - 1)),
       a.outcome = 'solved', a.seconds, a.stage, a.hints, a.outcome, a.score
FROM g_attempt a
JOIN g_play gp ON gp.j = a.j
JOIN g_play_id pid ON pid.j = a.j
ORDER BY a.j, a.pos;

-- What the triggers would have added, row by row: every new play counts in its package's plays; every attempt (all
-- have a player) in its package's server attempts and solves and in its quiz's stage; every ranked play of a player
-- not banned in its package's scores.
UPDATE package_tally t
SET plays = t.plays + n.plays, server_attempts = t.server_attempts + n.attempts, server_solves = t.server_solves + n.solves
FROM (
    SELECT pk.id AS package_id, COUNT(*) AS plays, SUM(gp.attempts) AS attempts, SUM(sol.solves) AS solves
    FROM g_play gp
    JOIN g_package pk ON pk.i = gp.pi
    JOIN (SELECT j, COUNT(*) FILTER (WHERE outcome = 'solved') AS solves FROM g_attempt GROUP BY j) sol ON sol.j = gp.j
    GROUP BY pk.id
) n
WHERE t.package_id = n.package_id;
INSERT INTO leaderboard_score (package_id, score, plays)
SELECT play.package_id, play.score, COUNT(*)
FROM g_play_id pid JOIN play ON play.id = pid.play_id
WHERE play.ranked AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
GROUP BY play.package_id, play.score
ON CONFLICT (package_id, score) DO UPDATE SET plays = leaderboard_score.plays + excluded.plays;
INSERT INTO quiz_stage_tally (quiz_id, stage, attempts, solved, hinted)
SELECT quiz_id, stage, COUNT(*), COUNT(*) FILTER (WHERE outcome = 'solved'), COUNT(*) FILTER (WHERE hints > 0)
FROM g_attempt GROUP BY quiz_id, stage
ON CONFLICT (quiz_id, stage) DO UPDATE
SET attempts = quiz_stage_tally.attempts + excluded.attempts, solved = quiz_stage_tally.solved + excluded.solved,
    hinted = quiz_stage_tally.hinted + excluded.hinted;
INSERT INTO player_tally (player_id, plays, points, played, solved)
SELECT play.player_id, COUNT(*), COALESCE(SUM(play.score), 0), SUM(a.played), SUM(a.solved)
FROM g_play_id pid JOIN play ON play.id = pid.play_id
JOIN (SELECT play_id, COUNT(*) AS played, COUNT(*) FILTER (WHERE correct) AS solved FROM attempt GROUP BY play_id) a
    ON a.play_id = play.id
GROUP BY play.player_id
ON CONFLICT (player_id) DO UPDATE
SET plays = player_tally.plays + excluded.plays, points = player_tally.points + excluded.points,
    played = player_tally.played + excluded.played, solved = player_tally.solved + excluded.solved;
INSERT INTO player_stage_tally (player_id, stage, solved)
SELECT play.player_id, attempt.stage_reached, COUNT(*)
FROM g_play_id pid JOIN play ON play.id = pid.play_id JOIN attempt ON attempt.play_id = play.id
WHERE attempt.correct
GROUP BY play.player_id, attempt.stage_reached
ON CONFLICT (player_id, stage) DO UPDATE SET solved = player_stage_tally.solved + excluded.solved;
ALTER TABLE play ENABLE TRIGGER play_tally_insert;
ALTER TABLE attempt ENABLE TRIGGER attempt_tally_insert;

-- Wrong guesses (normalized, as the server keeps them): 12 on each quiz of the hot and warm packages, up to 3 on a
-- third of the others'.
INSERT INTO wrong_guess (quiz_id, guess, plays)
SELECT gq.quiz_id, lower(m.title), GREATEST(1, s.hot_plays / (8 * (g.p + 1)))
FROM (SELECT * FROM g_quiz WHERE pi <= (SELECT warm FROM g_param)) gq CROSS JOIN g_seg s
JOIN g_package gp ON gp.i = gq.pi
CROSS JOIN (SELECT p FROM g_pos UNION ALL SELECT p + 5 FROM g_pos UNION ALL SELECT p + 10 FROM g_pos WHERE p < 2) g
JOIN g_movie_count c ON c.lang = gp.language AND c.src = gp.src
JOIN g_movie m ON m.lang = gp.language AND m.src = gp.src AND m.k = (gp.movie_offset + 5 + g.p) % c.n
WHERE gq.pi <= s.warm AND m.k <> (gp.movie_offset + gq.pos) % c.n
ON CONFLICT (quiz_id, guess) DO UPDATE SET plays = wrong_guess.plays + excluded.plays;
INSERT INTO wrong_guess (quiz_id, guess, plays)
SELECT gq.quiz_id, lower(m.title), 1 + (gq.quiz_id + g.p) % 7
FROM (SELECT * FROM g_quiz
      WHERE pi > (SELECT warm FROM g_param) AND (quiz_id * 2654435761) % 4294967296 < 1431655765) gq CROSS JOIN g_seg s
JOIN g_package gp ON gp.i = gq.pi
JOIN g_pos g ON g.p < 1 + gq.quiz_id % 3
JOIN g_movie_count c ON c.lang = gp.language AND c.src = gp.src
JOIN g_movie m ON m.lang = gp.language AND m.src = gp.src AND m.k = (gp.movie_offset + 5 + g.p) % c.n
WHERE gq.pi > s.warm AND (gq.quiz_id * 2654435761) % 4294967296 < 1431655765
  AND m.k <> (gp.movie_offset + gq.pos) % c.n
ON CONFLICT (quiz_id, guess) DO UPDATE SET plays = wrong_guess.plays + excluded.plays;

-- Moderation: a player in a thousand banned (after their plays, with the ban's trigger on: it takes them off the
-- leaderboards), their packages hidden; a few packages hidden by reports.
INSERT INTO banned_player (player_id, banned_at)
SELECT id, pg_temp.ts((SELECT now_sec FROM g_param) - 86400 * (1 + i % 30)) FROM g_player WHERE i % 1000 = 999;
INSERT INTO hidden_package (package_id, reason, hidden_at)
SELECT gp.id, CASE WHEN b.player_id IS NOT NULL THEN 'owner_banned' ELSE 'reports' END,
       pg_temp.ts(g_param.now_sec - 86400)
FROM g_package gp CROSS JOIN g_param
LEFT JOIN banned_player b ON b.player_id = gp.owner_id
WHERE gp.i > g_param.warm AND (b.player_id IS NOT NULL OR gp.i % 2003 = 1001);

INSERT INTO g_assert SELECT 'every play inserted', (SELECT COUNT(*) FROM g_play_id) = (SELECT COUNT(*) FROM g_play);
INSERT INTO g_assert SELECT 'plays as sized',
    (SELECT COUNT(*) FROM g_play) = (SELECT hot_plays + warm_total + daily_others + heavy_player_plays + tail FROM g_seg);

DROP TABLE g_assert, g_pos, g_word, g_fixed, g_player, g_movie, g_movie_count, g_package, g_quiz, g_daily, g_seg,
    g_play, g_attempt, g_final, g_play_id, g_param;
DROP FUNCTION pg_temp.ts(bigint);
DROP FUNCTION pg_temp.u(bigint, bigint, bigint);
COMMIT;
-- Statistics for the planner now, as autovacuum would take them a little later.
ANALYZE;
