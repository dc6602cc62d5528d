-- Grows a migrated and seeded uquiz SQLite database to a large server (GitHub issue "Cost that does not grow with the
-- data"; Benchmarks/growth.sh). Set-based: recursive CTEs into temporary tables, then one INSERT ... SELECT per table.
--
-- The caller creates the sizes first, one row, in the same connection:
--   CREATE TEMP TABLE growthSize (packages INTEGER, makers INTEGER, players INTEGER, plays INTEGER, hotPlays INTEGER,
--                                 warmPackages INTEGER, warmPlays INTEGER, heavyPlayerPlays INTEGER, dailyDays INTEGER);
--   INSERT INTO growthSize VALUES (50000, 5000, 50000, 500000, 100000, 5, 10000, 5000, 365);   -- the full size
-- then runs this file (sqlite3 DB < sizes-and-this-file, or GRDB's execute(sql:); no dot-commands here).
--
-- What it adds (full size in parentheses):
-- - two fixed players: "Growth heavy player", bearer token `growth-heavy-player-token-xxxxxxxxxxxxxxxxx`, and
--   "Growth maker", token `growth-maker-token-xxxxxxxxxxxxxxxxxxxxxxxx` (a token is 43 base64url characters; tokenHash
--   is the SHA-256 of its UTF-8 bytes, written below as literals: SQLite has no sha256), plus `players` generated
--   players (50,000; the first `makers` of them (5,000) publish packages);
-- - `packages` published user packages (50,000): package 0 is the hot one, share code HQT234 (share codes have no O);
--   packages 1..warmPackages (5) are warm, codes WARM22, WARM23, ...; hot and warm belong to Growth maker, who also
--   owns every 100th package (about 500: a maker with many packages); 1 to 5 quizzes each (the hot and warm ones 5)
--   copied from the seed's quizzes of the same language (90% with the seed's bundled posters, the rest TMDB ones),
--   3 areas each; titles from word lists ("night" in about a seventh of them, so a search has many matches); level,
--   language and createdAt (over the last year) varied; about 80% public, the rest unlisted;
-- - `dailyDays` past daily quizzes (365): the days before today (UTC), numbered 1 (oldest) to dailyDays, on distinct
--   quizzes of public packages with bundled posters;
-- - `plays` finished server plays (500,000): hotPlays (100,000) of the hot package, warmPlays (10,000) of each warm one,
--   plays/20 daily plays spread over the days (one attempt each, never ranked), heavyPlayerPlays (5,000) of the heavy
--   player (daily plays on 4 days in 5, the others across many packages, the hot one included, a fifth of them
--   repeats), and a long tail over the other packages by players skewed towards a few busy ones. A play is ranked
--   when it is its player's first non-daily play of the package (play_ranked_once) and the player does not own the
--   package (unrankedReason 'maker'); later ones say 'answer_seen_in_play'. Ids follow the finish time;
-- - one attempt per quiz of each play (about 1.77 million): solved, missed or skipped, stage 1-3, a hint in one in
--   five, seconds and a score by the game's scoring (Scoring.score, 3 stages, 20 s); play.score and elapsedSeconds
--   are their sums;
-- - wrong guesses on the hot and warm packages' quizzes and on a third of the others; a banned player in a thousand
--   (their packages hidden, 'owner_banned'), and a few packages hidden by reports.
--
-- Every kept tally (packageTally, leaderboardScore, quizStageTally) is kept by the schema's triggers as the rows go in:
-- each play is inserted before its attempts, and bans after the plays. Benchmarks/growth-check-sqlite.sql recounts.
-- Deterministic but for the dates, which follow the clock. Takes about a minute at full size.
BEGIN;
PRAGMA cache_size = -262144;

-- Sizes and the clock; a size table of another shape fails here.
CREATE TEMP TABLE g_param AS
SELECT packages, makers, players, plays, hotPlays, warmPackages, warmPlays, heavyPlayerPlays, dailyDays,
       MIN(warmPackages, MAX(packages - 1, 0)) AS warm,
       CAST(strftime('%s', 'now') AS INTEGER) AS nowSec,
       CAST(strftime('%s', 'now') AS INTEGER) / 86400 * 86400 AS todaySec
FROM growthSize LIMIT 1;
-- packages >= 1 and players >= 1, or nothing can be played.
CREATE TEMP TABLE g_assert (what TEXT, ok INTEGER CHECK (ok));
INSERT INTO g_assert SELECT 'sizes', packages >= 1 AND players >= 1 AND makers >= 0 AND warmPackages <= 30 FROM g_param;

CREATE TEMP TABLE g_pos (p INTEGER PRIMARY KEY);
INSERT INTO g_pos VALUES (0), (1), (2), (3), (4);

-- Words of titles and names (k from 0).
CREATE TEMP TABLE g_word (list TEXT, k INTEGER, w TEXT, PRIMARY KEY (list, k)) WITHOUT ROWID;
INSERT INTO g_word (list, k, w)
SELECT 'adj', key, value FROM json_each('["Midnight","Dark","Silent","Golden","Summer","Winter","Classic","Forgotten",
  "Hidden","Late Night","Lost","Wild","Crazy","Easy","Impossible","Legendary","Cult","Animated","Korean","French",
  "Retro","Modern","Epic","Tiny","Secret","Starry","Rainy","Lonely","Happy","Night Owl","Spooky","Weekend","Family",
  "Ultimate","Underrated","Black and White","Neon","Sunday","Electric","Cozy"]')
UNION ALL
SELECT 'noun', key, value FROM json_each('["Movies","Films","Classics","Posters","Heroes","Villains","Nights","Monsters",
  "Detectives","Westerns","Musicals","Comedies","Thrillers","Dreams","Stars","Knights","Kisses","Road Trips","Spies",
  "Robots","Ghosts","Love Stories","Blockbusters","Sequels","Cartoons","Night Shift","Adventures","Mysteries","Legends",
  "Cinema","Heists","Dragons","Cowboys","Aliens","Witches","Pirates","Sword Fights","Car Chases","Dance Numbers","Rivals"]')
UNION ALL
SELECT 'tail', key, value FROM json_each('["Quiz","Challenge","Marathon","Vol. 2","Edition","for Beginners","Deluxe",
  "Trivia","Test","Special"]')
UNION ALL
SELECT 'ko1', key, value FROM json_each('["한밤의","추억의","숨은","전설의","여름밤","겨울","고전","요즘","최고의","무서운",
  "웃기는","슬픈","한국","프랑스","가족","주말","심야","흑백","낭만","액션"]')
UNION ALL
SELECT 'ko2', key, value FROM json_each('["영화","명작","포스터","퀴즈","영화관","주인공","악당","괴물","탐정","로맨스",
  "코미디","애니메이션","스릴러","모험","전설","시리즈","영화 퀴즈","명장면","OST","감독"]')
UNION ALL
SELECT 'first', key, value FROM json_each('["Mina","Jae","Alex","Sam","Yuna","Chris","Hana","Leo","Ji-woo","Maya",
  "Noah","Seo-yeon","Ethan","Min-jun","Olivia","Hyun","Lucas","Ara","Emma","Dong","Zoe","Tae","Liam","Soo","Ivy",
  "Joon","Nora","Kai","Eun","Max","Ruby","Hoon","Lena","Ben","Da-eun","Finn","Cleo","Woo","Iris","Theo"]');
CREATE TEMP TABLE g_wordCount AS SELECT list, COUNT(*) AS n FROM g_word GROUP BY list;

-- Players: the two fixed ones, then the generated ones (g_player.i from 0; the first `makers` publish).
INSERT INTO player (name, tokenHash, createdAt)
SELECT 'Growth heavy player', X'87c97574f81316f815f10dd78f8a3919e9afc5bc7b240836b70fbf9f94cef7c6',
       strftime('%Y-%m-%dT%H:%M:%SZ', nowSec - 400 * 86400, 'unixepoch') FROM g_param
UNION ALL
SELECT 'Growth maker', X'bec9cc3b12448ba5f9e21454571638b8ae205b5bd606cb5f3df70ebe4880b4b6',
       strftime('%Y-%m-%dT%H:%M:%SZ', nowSec - 400 * 86400, 'unixepoch') FROM g_param;
CREATE TEMP TABLE g_fixed AS
SELECT (SELECT id FROM player WHERE tokenHash = X'87c97574f81316f815f10dd78f8a3919e9afc5bc7b240836b70fbf9f94cef7c6')
           AS heavyId,
       (SELECT id FROM player WHERE tokenHash = X'bec9cc3b12448ba5f9e21454571638b8ae205b5bd606cb5f3df70ebe4880b4b6')
           AS makerId;
WITH RECURSIVE n(i) AS (
    SELECT 0 FROM g_param WHERE players > 0
    UNION ALL SELECT i + 1 FROM n, g_param WHERE i + 1 < players
)
INSERT INTO player (name, tokenHash, createdAt)
SELECT (SELECT w FROM g_word WHERE list = 'first' AND k = (i * 7) % 40) || ' ' || (i % 9973 + 1),
       -- Unique, and no token's SHA-256: these players are never signed in as.
       CAST(printf('growth-player-%018d', i) AS BLOB),
       strftime('%Y-%m-%dT%H:%M:%SZ', nowSec - 366 * 86400 - (i * 131) % (30 * 86400), 'unixepoch')
FROM n, g_param ORDER BY i;
CREATE TEMP TABLE g_player (i INTEGER PRIMARY KEY, id INTEGER NOT NULL, name TEXT NOT NULL);
INSERT INTO g_player (i, id, name)
SELECT ROW_NUMBER() OVER (ORDER BY id) - 1, id, name FROM player WHERE id > (SELECT makerId FROM g_fixed);

-- The seed's quizzes to copy, by language and poster source (k from 0).
CREATE TEMP TABLE g_movie AS
SELECT p.language AS lang, q.posterSource AS src,
       ROW_NUMBER() OVER (PARTITION BY p.language, q.posterSource ORDER BY q.id) - 1 AS k,
       q.catalogKey, q.tmdbId, q.title, q.originalTitle, q.releaseDate, q.genreIds, q.posterPath,
       q.gridColumns, q.gridRows, q.gridAreaSize, q.gridMargin
FROM quiz q JOIN package p ON p.id = q.packageId
WHERE p.origin = 'seed' AND q.gridColumns = 50 AND q.gridRows = 75;
CREATE UNIQUE INDEX g_movie_key ON g_movie (lang, src, k);
CREATE TEMP TABLE g_movieCount AS SELECT lang, src, COUNT(*) AS n FROM g_movie GROUP BY lang, src;
INSERT INTO g_assert SELECT 'the seed has bundled posters in both languages',
    (SELECT COUNT(*) FROM g_movieCount WHERE src = 'bundled' AND lang IN ('en', 'ko')) = 2;

-- Packages (g_package.i from 0: 0 hot, 1..warm warm, the rest the tail).
CREATE TEMP TABLE g_package (
    i INTEGER PRIMARY KEY, id INTEGER, code TEXT, title TEXT, ownerId INTEGER, makerName TEXT, level TEXT,
    language TEXT, createdSec INTEGER, visibility TEXT, src TEXT, quizCount INTEGER, movieOffset INTEGER);
WITH RECURSIVE n(i) AS (
    SELECT 0 FROM g_param WHERE packages > 0
    UNION ALL SELECT i + 1 FROM n, g_param WHERE i + 1 < packages
),
h AS (
    SELECT i,
           ((i * 2654435761 + 11) % 4294967296) / 4294967296.0 AS u1,
           ((i * 2246822519 + 13) % 4294967296) / 4294967296.0 AS u2,
           ((i * 3266489917 + 17) % 4294967296) / 4294967296.0 AS u3,
           ((i * 668265263 + 19) % 4294967296) / 4294967296.0 AS u4,
           ((i * 374761393 + 23) % 4294967296) / 4294967296.0 AS u5,
           ((i * 1597334677 + 29) % 4294967296) / 4294967296.0 AS u6,
           ((i * 3812015801 + 31) % 4294967296) / 4294967296.0 AS u7,
           ((i * 2869860233 + 37) % 4294967296) / 4294967296.0 AS u8,
           ((i * 1181783497 + 41) % 4294967296) / 4294967296.0 AS u9,
           ((i * 3704542771 + 43) % 4294967296) / 4294967296.0 AS u10,
           (i * 282475249 + 1000003) % 24300000 AS v
    FROM n
),
shaped AS (
    SELECT h.*, g_param.warm, g_param.makers, g_param.nowSec,
           i <= g_param.warm OR i % 100 = 50 OR g_param.makers = 0 AS bigMaker,
           CASE WHEN i <= g_param.warm OR u2 < 0.7 THEN 'en' ELSE 'ko' END AS language
    FROM h, g_param
)
INSERT INTO g_package (i, code, title, ownerId, makerName, level, language, createdSec, visibility, src, quizCount,
                       movieOffset)
SELECT i,
       CASE WHEN i = 0 THEN 'HQT234'
            WHEN i <= warm THEN 'WARM2' || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', i, 1)
            -- A first character no seed code and no fixed code starts with, then v (unique) in base 30.
            ELSE substr('JKMNPQTVY3', i % 10 + 1, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', v / 810000 % 30 + 1, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', v / 27000 % 30 + 1, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', v / 900 % 30 + 1, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', v / 30 % 30 + 1, 1)
                 || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', v % 30 + 1, 1) END,
       CASE WHEN i = 0 THEN 'Movies Everyone Knows, Late Night Edition'
            WHEN language = 'ko' THEN
                (SELECT w FROM g_word WHERE list = 'ko1' AND k = CAST(u3 * 20 AS INTEGER)) || ' '
                || (SELECT w FROM g_word WHERE list = 'ko2' AND k = CAST(u4 * 20 AS INTEGER))
                || CASE WHEN u5 < 0.5 THEN ' 퀴즈' ELSE ' ' || (i % 9 + 1) END
            WHEN u5 < 0.3 THEN
                (SELECT w FROM g_word WHERE list = 'adj' AND k = CAST(u3 * 40 AS INTEGER)) || ' '
                || (SELECT w FROM g_word WHERE list = 'noun' AND k = CAST(u4 * 40 AS INTEGER))
            WHEN u5 < 0.55 THEN
                'The ' || (SELECT w FROM g_word WHERE list = 'adj' AND k = CAST(u3 * 40 AS INTEGER)) || ' '
                || (SELECT w FROM g_word WHERE list = 'noun' AND k = CAST(u4 * 40 AS INTEGER)) || ' '
                || (SELECT w FROM g_word WHERE list = 'tail' AND k = CAST(u6 * 10 AS INTEGER))
            WHEN u5 < 0.8 THEN
                (SELECT w FROM g_word WHERE list = 'noun' AND k = CAST(u4 * 40 AS INTEGER)) || ' of the '
                || CASE WHEN u6 < 0.3 THEN 'Night' ELSE (SELECT w FROM g_word WHERE list = 'noun' AND k = CAST(u3 * 40 AS INTEGER)) END
            ELSE
                (SELECT w FROM g_word WHERE list = 'adj' AND k = CAST(u3 * 40 AS INTEGER)) || ' '
                || (SELECT w FROM g_word WHERE list = 'noun' AND k = CAST(u4 * 40 AS INTEGER)) || ' '
                || (1960 + CAST(u6 * 6 AS INTEGER) * 10) || 's'
       END,
       CASE WHEN bigMaker THEN (SELECT makerId FROM g_fixed)
            ELSE (SELECT id FROM g_player WHERE g_player.i = CAST(makers * u1 * (1 + u1) / 2 AS INTEGER)) END,
       CASE WHEN bigMaker THEN 'Growth maker'
            ELSE (SELECT name FROM g_player WHERE g_player.i = CAST(makers * u1 * (1 + u1) / 2 AS INTEGER)) END,
       CASE WHEN i = 0 OR u6 < 0.4 THEN 'beginner' WHEN u6 < 0.75 THEN 'intermediate' ELSE 'expert' END,
       language,
       CASE WHEN i <= warm THEN nowSec - 360 * 86400 + i * 3600 ELSE nowSec - 3600 - CAST(u7 * 365 * 86400 AS INTEGER) END,
       CASE WHEN i <= warm OR u8 < 0.8 THEN 'public' ELSE 'unlisted' END,
       CASE WHEN i <= warm OR u9 < 0.9
                 OR NOT EXISTS (SELECT 1 FROM g_movieCount c WHERE c.lang = language AND c.src = 'tmdb')
            THEN 'bundled' ELSE 'tmdb' END,
       CASE WHEN i <= warm THEN 5 ELSE 1 + CAST(u10 * 5 AS INTEGER) END,
       CAST(u3 * 1000 AS INTEGER)
FROM shaped ORDER BY i;

INSERT INTO package (shareCode, seedId, origin, title, maker, level, language, createdAt)
SELECT code, NULL, 'user', title, makerName, level, language, strftime('%Y-%m-%dT%H:%M:%SZ', createdSec, 'unixepoch')
FROM g_package ORDER BY i;
UPDATE g_package SET id = (SELECT id FROM package WHERE package.shareCode = g_package.code);
CREATE UNIQUE INDEX g_package_id ON g_package (id);
INSERT INTO publication (packageId, ownerId, visibility) SELECT id, ownerId, visibility FROM g_package ORDER BY i;

-- Quizzes (consecutive seed movies of the package's language and source from its offset) and 3 areas each.
INSERT INTO quiz (packageId, position, catalogKey, tmdbId, title, originalTitle, releaseDate, genreIds, posterPath,
                  posterSource, gridColumns, gridRows, gridAreaSize, gridMargin)
SELECT gp.id, pos.p, m.catalogKey, m.tmdbId, m.title, m.originalTitle, m.releaseDate, m.genreIds, m.posterPath, m.src,
       m.gridColumns, m.gridRows, m.gridAreaSize, m.gridMargin
FROM g_package gp
JOIN g_pos pos ON pos.p < gp.quizCount
JOIN g_movieCount c ON c.lang = gp.language AND c.src = gp.src
JOIN g_movie m ON m.lang = gp.language AND m.src = gp.src AND m.k = (gp.movieOffset + pos.p) % c.n
ORDER BY gp.i, pos.p;
CREATE TEMP TABLE g_quiz (pi INTEGER, pos INTEGER, quizId INTEGER, PRIMARY KEY (pi, pos)) WITHOUT ROWID;
INSERT INTO g_quiz (pi, pos, quizId)
SELECT gp.i, q.position, q.id FROM quiz q JOIN g_package gp ON gp.id = q.packageId;
INSERT INTO g_assert SELECT 'every package has its quizzes',
    (SELECT COUNT(*) FROM g_quiz) = (SELECT SUM(quizCount) FROM g_package);
INSERT INTO area (quizId, stage, centreRow, centreColumn)
SELECT gq.quizId, s.stage, s.centreRow + gq.quizId % 7, s.centreColumn + gq.quizId % 5
FROM g_quiz gq
CROSS JOIN (SELECT 1 AS stage, 20 AS centreRow, 20 AS centreColumn
            UNION ALL SELECT 2, 40, 30 UNION ALL SELECT 3, 60, 10) s
ORDER BY gq.quizId, s.stage;

-- Past daily quizzes: distinct quizzes of public tail packages with bundled posters; d = 1 is the oldest day and
-- d = days is yesterday (UTC).
CREATE TEMP TABLE g_daily (d INTEGER PRIMARY KEY, quizId INTEGER, pi INTEGER, pos INTEGER, daySec INTEGER, day TEXT);
INSERT INTO g_daily (d, quizId, pi, pos)
SELECT ROW_NUMBER() OVER (ORDER BY (gq.quizId * 2654435761) % 4294967296, gq.quizId), gq.quizId, gq.pi, gq.pos
FROM g_quiz gq JOIN g_package gp ON gp.i = gq.pi, g_param
WHERE gp.i > g_param.warm AND gp.visibility = 'public' AND gp.src = 'bundled'
ORDER BY (gq.quizId * 2654435761) % 4294967296, gq.quizId
LIMIT (SELECT dailyDays FROM g_param);
UPDATE g_daily SET daySec = (SELECT todaySec FROM g_param) - ((SELECT COUNT(*) FROM g_daily) - d + 1) * 86400;
UPDATE g_daily SET day = strftime('%Y-%m-%d', daySec, 'unixepoch');
INSERT INTO daily (day, language, number, quizId, chosenAt)
SELECT day, (SELECT p.language FROM quiz JOIN package p ON p.id = quiz.packageId WHERE quiz.id = g_daily.quizId), d,
       quizId, strftime('%Y-%m-%dT%H:%M:%SZ', daySec + 1, 'unixepoch')
FROM g_daily ORDER BY d;

-- How the plays split: hot, warm, daily, heavy, tail (in that order of j).
CREATE TEMP TABLE g_seg AS
SELECT *, oHeavy + heavyPlayerPlays AS oTail,
       MAX(0, plays - hotPlays - warmTotal - dailyOthers - heavyPlayerPlays) AS tail,
       MAX(1, (heavyPlayerPlays - heavyDaily) * 4 / 5) AS heavyDistinct
FROM (
    SELECT *, oDaily + dailyOthers AS oHeavy
    FROM (
        SELECT *, hotPlays AS oWarm, hotPlays + warmTotal AS oDaily, perDay * days AS dailyOthers
        FROM (
            SELECT g_param.*, warm * warmPlays AS warmTotal, days,
                   CASE WHEN days > 0 THEN MIN(plays / 20 / days, players) ELSE 0 END AS perDay,
                   MAX(0, MIN(heavyPlayerPlays / 2, days - days / 5)) AS heavyDaily
            FROM g_param, (SELECT COUNT(*) AS days FROM g_daily)
        )
    )
);

-- Plays, one row each: j, package (pi), player, daily day (d), finish time, attempts and the position of the first.
CREATE TEMP TABLE g_play (
    j INTEGER PRIMARY KEY, pi INTEGER NOT NULL, playerId INTEGER NOT NULL, playerName TEXT NOT NULL, d INTEGER,
    finishedSec INTEGER NOT NULL, attempts INTEGER NOT NULL, firstPos INTEGER NOT NULL);
-- Hot: players drawn uniformly (about two plays each at full size).
WITH RECURSIVE n(k) AS (
    SELECT 0 FROM g_seg WHERE hotPlays > 0 UNION ALL SELECT k + 1 FROM n, g_seg WHERE k + 1 < hotPlays
)
INSERT INTO g_play (j, pi, playerId, playerName, d, finishedSec, attempts, firstPos)
SELECT k, 0, pl.id, pl.name, NULL,
       pk.createdSec + 600 + CAST(((k * 2246822519 + 1) % 4294967296) / 4294967296.0 * (s.nowSec - pk.createdSec - 1200) AS INTEGER),
       pk.quizCount, 0
FROM n, g_seg s
JOIN g_package pk ON pk.i = 0
JOIN g_player pl ON pl.i = CAST(((k * 2654435761 + 1) % 4294967296) / 4294967296.0 * s.players AS INTEGER);
-- Warm.
WITH RECURSIVE n(k) AS (
    SELECT 0 FROM g_seg WHERE warmTotal > 0 UNION ALL SELECT k + 1 FROM n, g_seg WHERE k + 1 < warmTotal
)
INSERT INTO g_play (j, pi, playerId, playerName, d, finishedSec, attempts, firstPos)
SELECT s.oWarm + k, pk.i, pl.id, pl.name, NULL,
       pk.createdSec + 600 + CAST(((k * 2246822519 + 3) % 4294967296) / 4294967296.0 * (s.nowSec - pk.createdSec - 1200) AS INTEGER),
       pk.quizCount, 0
FROM n, g_seg s
JOIN g_package pk ON pk.i = 1 + k / s.warmPlays
JOIN g_player pl ON pl.i = CAST(((k * 2654435761 + 3) % 4294967296) / 4294967296.0 * s.players AS INTEGER);
-- Daily: perDay distinct players a day, one attempt at the day's quiz.
WITH RECURSIVE n(k) AS (
    SELECT 0 FROM g_seg WHERE dailyOthers > 0 UNION ALL SELECT k + 1 FROM n, g_seg WHERE k + 1 < dailyOthers
)
INSERT INTO g_play (j, pi, playerId, playerName, d, finishedSec, attempts, firstPos)
SELECT s.oDaily + k, gd.pi, pl.id, pl.name, gd.d,
       gd.daySec + 30 + CAST(((k * 2246822519 + 5) % 4294967296) / 4294967296.0 * 86000 AS INTEGER), 1, gd.pos
FROM n, g_seg s
JOIN g_daily gd ON gd.d = k / s.perDay + 1
JOIN g_player pl ON pl.i = (gd.d * 7919 + k % s.perDay) % s.players;
-- The heavy player: daily plays on the days d % 5 <> 0, then plays of many packages (the hot one first), a fifth of
-- them a package it played before.
WITH RECURSIVE n(k) AS (
    SELECT 0 FROM g_seg WHERE heavyPlayerPlays > 0 UNION ALL SELECT k + 1 FROM n, g_seg WHERE k + 1 < heavyPlayerPlays
)
INSERT INTO g_play (j, pi, playerId, playerName, d, finishedSec, attempts, firstPos)
SELECT s.oHeavy + k, CASE WHEN gd.d IS NOT NULL THEN gd.pi ELSE pk.i END, f.heavyId, 'Growth heavy player', gd.d,
       CASE WHEN gd.d IS NOT NULL
            THEN gd.daySec + 30 + CAST(((k * 2246822519 + 7) % 4294967296) / 4294967296.0 * 86000 AS INTEGER)
            ELSE pk.createdSec + 600 + CAST(((k * 2246822519 + 7) % 4294967296) / 4294967296.0 * (s.nowSec - pk.createdSec - 1200) AS INTEGER) END,
       CASE WHEN gd.d IS NOT NULL THEN 1 ELSE pk.quizCount END,
       CASE WHEN gd.d IS NOT NULL THEN gd.pos ELSE 0 END
FROM n, g_seg s, g_fixed f
LEFT JOIN g_daily gd ON k < s.heavyDaily AND gd.d = (k / 4) * 5 + k % 4 + 1
LEFT JOIN g_package pk ON k >= s.heavyDaily AND pk.i = (((k - s.heavyDaily) % s.heavyDistinct) * 7919) % s.packages;
-- The long tail: packages and players both skewed (u squared) towards the first ones.
WITH RECURSIVE n(k) AS (
    SELECT 0 FROM g_seg WHERE tail > 0 UNION ALL SELECT k + 1 FROM n, g_seg WHERE k + 1 < tail
)
INSERT INTO g_play (j, pi, playerId, playerName, d, finishedSec, attempts, firstPos)
SELECT s.oTail + k, pk.i, pl.id, pl.name, NULL,
       pk.createdSec + 600 + CAST(((k * 2246822519 + 9) % 4294967296) / 4294967296.0 * MAX(0, s.nowSec - pk.createdSec - 1200) AS INTEGER),
       pk.quizCount, 0
FROM n, g_seg s
JOIN g_package pk ON pk.i = CASE WHEN s.packages > s.warm + 1
    THEN s.warm + 1 + CAST((s.packages - s.warm - 1) * (((k * 3266489917 + 9) % 4294967296) / 4294967296.0)
                                                      * (((k * 3266489917 + 9) % 4294967296) / 4294967296.0) AS INTEGER)
    ELSE 0 END
JOIN g_player pl ON pl.i = CAST(s.players * (((k * 2654435761 + 9) % 4294967296) / 4294967296.0)
                                          * (((k * 2654435761 + 9) % 4294967296) / 4294967296.0) AS INTEGER);

-- Attempts: one per quiz of each play (j, pos); outcome, stage, hint and seconds drawn, the score as Scoring.score
-- gives it for 3 stages and 20 s.
CREATE TEMP TABLE g_attempt (
    j INTEGER, pos INTEGER, quizId INTEGER, outcome TEXT, stage INTEGER, hints INTEGER, seconds REAL, score INTEGER,
    PRIMARY KEY (j, pos)) WITHOUT ROWID;
INSERT INTO g_attempt (j, pos, quizId, outcome, stage, hints, seconds, score)
SELECT j, pos, quizId, outcome, stage, hints, seconds,
       CASE WHEN outcome = 'solved'
            THEN (100 + 20 * (3 - stage) + CAST(ROUND(100 * (20 - seconds) / 20) AS INTEGER)) / (1 + hints)
            ELSE 0 END
FROM (
    SELECT j, pos, quizId, outcome, stage, hints,
           CASE outcome WHEN 'solved' THEN MIN(19.9, (stage - 1) * 2 + 0.5 + CAST(us * 120 AS INTEGER) / 10.0)
                        WHEN 'missed' THEN 20.0
                        ELSE (stage - 1) * 2 + 0.3 + CAST(us * 40 AS INTEGER) / 10.0 END AS seconds
    FROM (
        SELECT j, pos, quizId, us,
               CASE WHEN uo < 0.62 THEN 'solved' WHEN uo < 0.88 THEN 'missed' ELSE 'skipped' END AS outcome,
               CASE WHEN uo >= 0.62 AND uo < 0.88 THEN 3 ELSE 1 + CAST(ust * 3 AS INTEGER) END AS stage,
               CASE WHEN uh < 0.2 THEN 1 ELSE 0 END AS hints
        FROM (
            SELECT gp.j, p.p AS pos, gq.quizId,
                   (((gp.j * 8 + p.p) * 668265263 + 1) % 4294967296) / 4294967296.0 AS uo,
                   (((gp.j * 8 + p.p) * 374761393 + 1) % 4294967296) / 4294967296.0 AS ust,
                   (((gp.j * 8 + p.p) * 1597334677 + 1) % 4294967296) / 4294967296.0 AS uh,
                   (((gp.j * 8 + p.p) * 3812015801 + 1) % 4294967296) / 4294967296.0 AS us
            FROM g_play gp
            JOIN g_pos p ON p.p < gp.attempts
            JOIN g_quiz gq ON gq.pi = gp.pi AND gq.pos = gp.firstPos + p.p
        )
    )
)
ORDER BY j, pos;

-- Each play's score and quiz time, whether it is ranked (its player's first non-daily play of the package, unless
-- they own it), and its public id.
CREATE TEMP TABLE g_final (
    j INTEGER PRIMARY KEY, score INTEGER, elapsed REAL, ranked INTEGER, reason TEXT, publicId TEXT, playId INTEGER);
INSERT INTO g_final (j, score, elapsed, ranked, reason, publicId)
SELECT gp.j, sums.score, sums.elapsed,
       gp.d IS NULL AND r.rn = 1 AND gp.playerId <> pk.ownerId,
       CASE WHEN gp.d IS NOT NULL THEN NULL WHEN gp.playerId = pk.ownerId THEN 'maker'
            WHEN r.rn > 1 THEN 'answer_seen_in_play' END,
       printf('growth-%09d', gp.j)
FROM g_play gp
JOIN (SELECT j, SUM(score) AS score, ROUND(SUM(seconds), 1) AS elapsed FROM g_attempt GROUP BY j) sums ON sums.j = gp.j
JOIN g_package pk ON pk.i = gp.pi
LEFT JOIN (SELECT j, ROW_NUMBER() OVER (PARTITION BY pi, playerId ORDER BY finishedSec, j) AS rn
           FROM g_play WHERE d IS NULL) r ON r.j = gp.j;

-- The plays, in the order they finished (ids follow time), each before its attempts (the tallies' triggers).
INSERT INTO play (packageId, player, startedAt, finishedAt, score, publicId, playerId, ranked, elapsedSeconds, dailyDay,
                  unrankedReason)
SELECT pk.id, gp.playerName,
       strftime('%Y-%m-%dT%H:%M:%SZ', gp.finishedSec - CAST(f.elapsed AS INTEGER) - 3 * gp.attempts, 'unixepoch'),
       strftime('%Y-%m-%dT%H:%M:%SZ', gp.finishedSec, 'unixepoch'),
       f.score, f.publicId, gp.playerId, f.ranked, f.elapsed, gd.day, f.reason
FROM g_play gp
JOIN g_final f ON f.j = gp.j
JOIN g_package pk ON pk.i = gp.pi
LEFT JOIN g_daily gd ON gd.d = gp.d
ORDER BY gp.finishedSec, gp.j;
UPDATE g_final SET playId = (SELECT id FROM play WHERE play.publicId = g_final.publicId);

INSERT INTO attempt (playId, quizId, player, startedAt, correct, seconds, stageReached, hintsUsed, outcome, score)
SELECT f.playId, a.quizId, gp.playerName,
       strftime('%Y-%m-%dT%H:%M:%SZ', gp.finishedSec - 3 * (gp.attempts - a.pos - 1), 'unixepoch'),
       a.outcome = 'solved', a.seconds, a.stage, a.hints, a.outcome, a.score
FROM g_attempt a
JOIN g_play gp ON gp.j = a.j
JOIN g_final f ON f.j = a.j
ORDER BY a.j, a.pos;

-- Wrong guesses (normalized, as the server keeps them): 12 on each quiz of the hot and warm packages, up to 3 on a
-- third of the others'.
INSERT INTO wrongGuess (quizId, guess, plays)
SELECT gq.quizId, lower(m.title), MAX(1, s.hotPlays / (8 * (g.p + 1)))
FROM (SELECT * FROM g_quiz WHERE pi <= (SELECT warm FROM g_param)) gq, g_seg s
JOIN g_package gp ON gp.i = gq.pi
JOIN (SELECT p FROM g_pos UNION ALL SELECT p + 5 FROM g_pos UNION ALL SELECT p + 10 FROM g_pos WHERE p < 2) g
JOIN g_movieCount c ON c.lang = gp.language AND c.src = gp.src
JOIN g_movie m ON m.lang = gp.language AND m.src = gp.src AND m.k = (gp.movieOffset + 5 + g.p) % c.n
WHERE gq.pi <= s.warm AND m.k <> (gp.movieOffset + gq.pos) % c.n
ON CONFLICT (quizId, guess) DO UPDATE SET plays = plays + excluded.plays;
INSERT INTO wrongGuess (quizId, guess, plays)
SELECT gq.quizId, lower(m.title), 1 + (gq.quizId + g.p) % 7
FROM g_quiz gq, g_seg s
JOIN g_package gp ON gp.i = gq.pi
JOIN g_pos g ON g.p < 1 + gq.quizId % 3
JOIN g_movieCount c ON c.lang = gp.language AND c.src = gp.src
JOIN g_movie m ON m.lang = gp.language AND m.src = gp.src AND m.k = (gp.movieOffset + 5 + g.p) % c.n
WHERE gq.pi > s.warm AND (gq.quizId * 2654435761) % 4294967296 < 1431655765
  AND m.k <> (gp.movieOffset + gq.pos) % c.n
ON CONFLICT (quizId, guess) DO UPDATE SET plays = plays + excluded.plays;

-- Moderation: a player in a thousand banned (after their plays: the ban's trigger takes them off the leaderboards),
-- their packages hidden; a few packages hidden by reports.
INSERT INTO bannedPlayer (playerId, bannedAt)
SELECT id, strftime('%Y-%m-%dT%H:%M:%SZ', (SELECT nowSec FROM g_param) - 86400 * (1 + i % 30), 'unixepoch')
FROM g_player WHERE i % 1000 = 999;
INSERT INTO hiddenPackage (packageId, reason, hiddenAt)
SELECT gp.id, CASE WHEN b.playerId IS NOT NULL THEN 'owner_banned' ELSE 'reports' END, b2.bannedAt
FROM g_package gp, g_param
LEFT JOIN bannedPlayer b ON b.playerId = gp.ownerId
JOIN (SELECT strftime('%Y-%m-%dT%H:%M:%SZ', nowSec - 86400, 'unixepoch') AS bannedAt FROM g_param) b2
WHERE gp.i > g_param.warm AND (b.playerId IS NOT NULL OR gp.i % 2003 = 1001);

INSERT INTO g_assert SELECT 'every play inserted', (SELECT COUNT(*) FROM g_final WHERE playId IS NULL) = 0;
INSERT INTO g_assert SELECT 'plays as sized',
    (SELECT COUNT(*) FROM g_play) = (SELECT hotPlays + warmTotal + dailyOthers + heavyPlayerPlays + tail FROM g_seg);

DROP TABLE g_assert;
DROP TABLE g_pos;
DROP TABLE g_word;
DROP TABLE g_wordCount;
DROP TABLE g_fixed;
DROP TABLE g_player;
DROP TABLE g_movie;
DROP TABLE g_movieCount;
DROP TABLE g_package;
DROP TABLE g_quiz;
DROP TABLE g_daily;
DROP TABLE g_seg;
DROP TABLE g_play;
DROP TABLE g_attempt;
DROP TABLE g_final;
DROP TABLE g_param;
COMMIT;
