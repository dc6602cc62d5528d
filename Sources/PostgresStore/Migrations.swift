import Foundation
import UQuizStorage

/// The PostgreSQL schema, as named migrations applied in order. Names and statements are never edited once shipped:
/// a change is a new migration appended. It mirrors what the storage protocols need of QuizStore's SQLite schema
/// (Schema.swift), with the same uniqueness rules and cascades, plus the tables several server instances share
/// (open plays, rate buckets).
enum Migrations {
    /// Every instance takes this session-level advisory lock around checking, migrating and seeding, so instances
    /// starting at once do it once. Fixed forever: "uquiz" in ASCII.
    static let advisoryLockKey: Int64 = 0x75_71_75_69_7A

    static let all: [(name: String, statements: [String])] = [
        (
            "pg1-packages-catalog-players-plays",
            [
                "CREATE TABLE seed_meta (key text PRIMARY KEY, value text NOT NULL)",
                "CREATE TABLE poster_image (file_name text PRIMARY KEY, jpeg bytea NOT NULL, attribution text NOT NULL)",
                """
                CREATE TABLE movie (
                    id bigserial PRIMARY KEY, catalog_key text NOT NULL UNIQUE, tmdb_id bigint UNIQUE,
                    original_title text NOT NULL, title_ko text, title_en text, release_date text,
                    poster_path_ko text, poster_path_en text,
                    bundled_poster text REFERENCES poster_image (file_name) ON DELETE SET NULL)
                """,
                """
                CREATE TABLE movie_alias (
                    id bigserial PRIMARY KEY, movie_id bigint NOT NULL REFERENCES movie ON DELETE CASCADE,
                    title text NOT NULL, UNIQUE (movie_id, title))
                """,
                """
                CREATE TABLE package (
                    id bigserial PRIMARY KEY, share_code text NOT NULL UNIQUE, seed_id text UNIQUE,
                    origin text NOT NULL CHECK (origin IN ('seed', 'user')), title text NOT NULL, maker text NOT NULL,
                    level text NOT NULL CHECK (level IN ('beginner', 'intermediate', 'expert')),
                    language text NOT NULL CHECK (language IN ('ko', 'en')), created_at text NOT NULL,
                    user_edited boolean NOT NULL DEFAULT false)
                """,
                // Browsing newest first pages through (created_at, id).
                "CREATE INDEX package_on_created_at_id ON package (created_at, id)",
                """
                CREATE TABLE quiz (
                    id bigserial PRIMARY KEY, package_id bigint NOT NULL REFERENCES package ON DELETE CASCADE,
                    position bigint NOT NULL, catalog_key text, tmdb_id bigint, title text NOT NULL,
                    original_title text NOT NULL, release_date text, genre_ids text NOT NULL DEFAULT '[]',
                    poster_path text NOT NULL, poster_source text NOT NULL CHECK (poster_source IN ('tmdb', 'bundled')),
                    grid_columns bigint NOT NULL, grid_rows bigint NOT NULL, grid_area_size bigint NOT NULL,
                    grid_margin bigint NOT NULL, UNIQUE (package_id, position))
                """,
                """
                CREATE TABLE area (
                    id bigserial PRIMARY KEY, quiz_id bigint NOT NULL REFERENCES quiz ON DELETE CASCADE,
                    stage bigint NOT NULL, centre_row bigint NOT NULL, centre_column bigint NOT NULL,
                    UNIQUE (quiz_id, stage))
                """,
                """
                CREATE TABLE quiz_alias (
                    id bigserial PRIMARY KEY, quiz_id bigint NOT NULL REFERENCES quiz ON DELETE CASCADE,
                    title text NOT NULL, UNIQUE (quiz_id, title))
                """,
                // The bearer token is never stored: only its SHA-256.
                """
                CREATE TABLE player (
                    id bigserial PRIMARY KEY, name text NOT NULL, token_hash bytea NOT NULL UNIQUE,
                    created_at text NOT NULL)
                """,
                """
                CREATE TABLE publication (
                    package_id bigint PRIMARY KEY REFERENCES package ON DELETE CASCADE,
                    owner_id bigint REFERENCES player ON DELETE SET NULL,
                    visibility text NOT NULL CHECK (visibility IN ('public', 'unlisted')))
                """,
                """
                CREATE TABLE play (
                    id bigserial PRIMARY KEY, package_id bigint NOT NULL REFERENCES package ON DELETE CASCADE,
                    player text NOT NULL, started_at text NOT NULL, finished_at text, score bigint,
                    public_id text UNIQUE, player_id bigint REFERENCES player ON DELETE CASCADE,
                    ranked boolean NOT NULL DEFAULT false, elapsed_seconds double precision, daily_day text)
                """,
                "CREATE INDEX play_on_package_id ON play (package_id)",
                // A player's first finished play of a package is the ranked one; the index makes a second impossible.
                "CREATE UNIQUE INDEX play_ranked_once ON play (package_id, player_id) WHERE ranked",
                // One daily play per player and day, whatever any instance's memory says.
                "CREATE UNIQUE INDEX play_daily_once ON play (player_id, daily_day) WHERE daily_day IS NOT NULL",
                "CREATE INDEX play_leaderboard ON play (package_id, score DESC, elapsed_seconds) WHERE ranked",
                """
                CREATE TABLE attempt (
                    id bigserial PRIMARY KEY, play_id bigint REFERENCES play ON DELETE CASCADE,
                    quiz_id bigint NOT NULL REFERENCES quiz ON DELETE CASCADE, player text NOT NULL,
                    started_at text NOT NULL, correct boolean NOT NULL, seconds double precision NOT NULL,
                    stage_reached bigint NOT NULL, hints_used bigint NOT NULL DEFAULT 0, outcome text, score bigint)
                """,
                "CREATE INDEX attempt_on_play_id ON attempt (play_id)",
                "CREATE INDEX attempt_on_quiz_id ON attempt (quiz_id)",
                // Chosen once per UTC day, numbered from the first day on; a deleted quiz leaves the day without one.
                """
                CREATE TABLE daily (
                    day text PRIMARY KEY, number bigint NOT NULL UNIQUE,
                    quiz_id bigint REFERENCES quiz ON DELETE SET NULL, chosen_at text NOT NULL)
                """,
                // Plays being played, seen by every instance: the `OpenPlayRecord` kept whole as JSON (encoded as the
                // SQLite store encodes it), beside the columns it is searched by.
                """
                CREATE TABLE open_play (
                    id text PRIMARY KEY, player_id bigint NOT NULL REFERENCES player ON DELETE CASCADE,
                    package_id bigint NOT NULL REFERENCES package ON DELETE CASCADE, daily_day text,
                    ends_by_micros bigint NOT NULL, record text NOT NULL)
                """,
                // One open daily play per player and day.
                "CREATE UNIQUE INDEX open_play_daily_once ON open_play (player_id, daily_day) WHERE daily_day IS NOT NULL",
                "CREATE INDEX open_play_on_package_id ON open_play (package_id)",
                "CREATE INDEX open_play_on_ends_by_micros ON open_play (ends_by_micros)",
                // Rate limits' token buckets (QuizStore's `RateBucket` arithmetic), shared by every instance.
                "CREATE TABLE rate_bucket (key text PRIMARY KEY, tokens double precision NOT NULL, at_micros bigint NOT NULL)",
            ]
        ),
        (
            "pg2-live-rooms",
            [
                // The final results of live rooms, one row per player and room (QuizStore's `roomResult`).
                """
                CREATE TABLE room_result (
                    id bigserial PRIMARY KEY, room_code text NOT NULL,
                    package_id bigint NOT NULL REFERENCES package ON DELETE CASCADE,
                    player_id bigint REFERENCES player ON DELETE SET NULL, name text NOT NULL, rank integer NOT NULL,
                    score integer NOT NULL, solved integer NOT NULL, played integer NOT NULL, share_line text,
                    finished_at text NOT NULL)
                """,
                "CREATE INDEX room_result_on_player_id ON room_result (player_id)",
                // Which instance holds each open room: the others forward to it (QuizStore's `roomDirectory`).
                "CREATE TABLE room_directory (code text PRIMARY KEY, instance text NOT NULL, opened_at text NOT NULL)",
                "CREATE INDEX room_directory_on_instance ON room_directory (instance)",
            ]
        ),
        (
            "pg3-start-open-play",
            [
                // How many plays are open, kept by a trigger in 16 shards (by the play's id): a play start reads the
                // sum instead of counting the table, which took longer the more plays were open, and starts on
                // several connections rarely wait for the same shard's row.
                "CREATE TABLE open_play_tally (shard integer PRIMARY KEY, n bigint NOT NULL)",
                "INSERT INTO open_play_tally (shard, n) SELECT shard, 0 FROM generate_series(0, 15) AS shard",
                """
                UPDATE open_play_tally SET n = counted.n FROM (
                    SELECT hashtext(id) & 15 AS shard, COUNT(*) AS n FROM open_play GROUP BY 1
                ) AS counted WHERE open_play_tally.shard = counted.shard
                """,
                """
                CREATE FUNCTION uquiz_tally_open_play() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        UPDATE open_play_tally SET n = n + 1 WHERE shard = hashtext(NEW.id) & 15;
                    ELSE
                        UPDATE open_play_tally SET n = n - 1 WHERE shard = hashtext(OLD.id) & 15;
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER open_play_tally AFTER INSERT OR DELETE ON open_play
                FOR EACH ROW EXECUTE FUNCTION uquiz_tally_open_play()
                """,
                // A play start's checks and insert (`insertOpenPlay`) in one call: one round trip instead of a
                // transaction's six. Each statement of a volatile function reads the database as it is when the
                // statement starts (as the statements of a READ COMMITTED transaction do), so the quizzes are read
                // after the package's row is locked, never from before a change that held the lock.
                // Answers 'started', 'outdated', 'full', 'busy' or 'daily ' followed by the open daily play's id.
                """
                CREATE FUNCTION uquiz_start_open_play(
                    new_id text, new_player_id bigint, new_package_id bigint, new_daily_day text,
                    new_ends_by_micros bigint, new_record text, planned_quiz_ids bigint[], max_open integer,
                    exact_count_margin integer
                ) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    open_count integer;
                    current_plan bigint[];
                    existing text;
                BEGIN
                    -- This very start, made again after its connection failed: it went through.
                    PERFORM 1 FROM open_play WHERE id = new_id;
                    IF FOUND THEN RETURN 'started'; END IF;
                    PERFORM 1 FROM package WHERE id = new_package_id FOR SHARE;
                    IF NOT FOUND THEN RETURN 'outdated'; END IF;
                    SELECT SUM(n) INTO open_count FROM open_play_tally;
                    IF open_count + exact_count_margin >= max_open THEN
                        PERFORM pg_advisory_xact_lock(hashtextextended('uquiz open plays', 0));
                        SELECT COUNT(*) INTO open_count FROM (SELECT 1 FROM open_play LIMIT max_open) AS counted;
                    END IF;
                    IF open_count >= max_open THEN RETURN 'full'; END IF;
                    IF new_daily_day IS NOT NULL THEN
                        SELECT id INTO existing FROM open_play WHERE player_id = new_player_id AND daily_day = new_daily_day;
                        IF FOUND THEN RETURN 'daily ' || existing; END IF;
                    END IF;
                    SELECT COALESCE(array_agg(quiz.id ORDER BY quiz.position), '{}') INTO current_plan FROM quiz
                    WHERE quiz.package_id = new_package_id AND EXISTS (SELECT 1 FROM area WHERE area.quiz_id = quiz.id);
                    IF new_daily_day IS NULL THEN
                        IF current_plan IS DISTINCT FROM planned_quiz_ids THEN RETURN 'outdated'; END IF;
                    ELSIF cardinality(planned_quiz_ids) <> 1 OR NOT (planned_quiz_ids[1] = ANY (current_plan)) THEN
                        RETURN 'outdated';
                    END IF;
                    -- A daily play of the same player and day inserted since the check makes the insert do nothing:
                    -- the answer names it. When that play ends meanwhile too, the insert is tried again.
                    FOR attempt IN 1..3 LOOP
                        INSERT INTO open_play (id, player_id, package_id, daily_day, ends_by_micros, record)
                        VALUES (new_id, new_player_id, new_package_id, new_daily_day, new_ends_by_micros, new_record)
                        ON CONFLICT (player_id, daily_day) WHERE daily_day IS NOT NULL DO NOTHING;
                        IF FOUND THEN RETURN 'started'; END IF;
                        SELECT id INTO existing FROM open_play WHERE player_id = new_player_id AND daily_day = new_daily_day;
                        IF FOUND THEN RETURN 'daily ' || existing; END IF;
                    END LOOP;
                    RETURN 'busy';
                END
                $$
                """,
            ]
        ),
        (
            "pg4-player-history-unranked-reason-uploads",
            [
                // A player's page lists their plays, newest first.
                "CREATE INDEX play_on_player_id ON play (player_id, id)",
                // Why a play could not be ranked (UnrankedReason), NULL when it could.
                "ALTER TABLE play ADD COLUMN unranked_reason text",
                // Who uploaded a poster and when (NULL for the bundled ones): a player's uploads are held to a quota,
                // and those no quiz uses go after a grace period.
                "ALTER TABLE poster_image ADD COLUMN owner_id bigint REFERENCES player ON DELETE SET NULL",
                "ALTER TABLE poster_image ADD COLUMN stored_at text",
                "CREATE INDEX poster_image_on_owner_id ON poster_image (owner_id)",
            ]
        ),
        (
            "pg5-moderation",
            [
                // Players' reports of packages and rooms' names, one per reporter and target (a package's id, or a
                // room's code with its host and name).
                """
                CREATE TABLE report (
                    id bigserial PRIMARY KEY,
                    target_kind text NOT NULL,
                    target_key text NOT NULL,
                    package_id bigint REFERENCES package ON DELETE CASCADE,
                    room_code text,
                    room_name text,
                    room_player_id bigint REFERENCES player ON DELETE CASCADE,
                    reporter_id bigint NOT NULL REFERENCES player ON DELETE CASCADE,
                    reason text NOT NULL,
                    text text,
                    created_at text NOT NULL,
                    UNIQUE (reporter_id, target_kind, target_key)
                )
                """,
                "CREATE INDEX report_on_target ON report (target_kind, target_key)",
                "CREATE INDEX report_on_package_id ON report (package_id)",
                // Packages nobody may see (HiddenReason), and players who may only read.
                """
                CREATE TABLE hidden_package (
                    package_id bigint PRIMARY KEY REFERENCES package ON DELETE CASCADE,
                    reason text NOT NULL,
                    hidden_at text NOT NULL
                )
                """,
                """
                CREATE TABLE banned_player (
                    player_id bigint PRIMARY KEY REFERENCES player ON DELETE CASCADE,
                    banned_at text NOT NULL
                )
                """,
                // Every action of a moderator or of the server's automatic hiding, kept for good.
                """
                CREATE TABLE moderation_action (
                    id bigserial PRIMARY KEY,
                    at text NOT NULL,
                    kind text NOT NULL,
                    target text NOT NULL,
                    reason text NOT NULL,
                    actor text NOT NULL
                )
                """,
            ]
        ),
        (
            "pg6-link-codes",
            [
                // One-time codes that move a player to another device, and the tokens beyond the first that gives them.
                """
                CREATE TABLE link_code (
                    code_hash bytea PRIMARY KEY,
                    player_id bigint NOT NULL REFERENCES player ON DELETE CASCADE,
                    expires_at text NOT NULL
                )
                """,
                """
                CREATE TABLE player_token (
                    token_hash bytea PRIMARY KEY,
                    player_id bigint NOT NULL REFERENCES player ON DELETE CASCADE,
                    created_at text NOT NULL
                )
                """,
                "CREATE INDEX player_token_on_player_id ON player_token (player_id)",
            ]
        ),
        (
            "pg7-room-checkpoints",
            [
                // A room's holder renews a lease on it and keeps its checkpoint (JSON): when the lease ends, another
                // instance carries the room on from it (QuizStore's v14-room-checkpoints).
                "ALTER TABLE room_directory ADD COLUMN lease_until bigint, ADD COLUMN checkpoint text",
                "CREATE INDEX room_directory_on_lease_until ON room_directory (lease_until)",
            ]
        ),
        (
            "pg8-drafts",
            [
                // Packages being made on the server, each its maker's (QuizStore's v15-drafts).
                """
                CREATE TABLE draft (
                    id bigserial PRIMARY KEY,
                    player_id bigint NOT NULL REFERENCES player ON DELETE CASCADE,
                    document text NOT NULL,
                    created_at text NOT NULL,
                    updated_at text NOT NULL
                )
                """,
                "CREATE INDEX draft_on_player_id ON draft (player_id)",
            ]
        ),
        (
            "pg9-answers-shown-wrong-guesses-room-hosts",
            [
                // A room's host, and whether it has finished: a player's rooms open on every instance are counted.
                "ALTER TABLE room_directory ADD COLUMN host_id bigint, ADD COLUMN finished boolean NOT NULL DEFAULT false",
                "CREATE INDEX room_directory_on_host_id ON room_directory (host_id) WHERE host_id IS NOT NULL",
                // The players a live room named a quiz's answer to, and each quiz's wrong guesses counted by plays
                // (QuizStore's v16-answers-shown-and-wrong-guesses).
                """
                CREATE TABLE answer_shown (
                    player_id bigint NOT NULL REFERENCES player ON DELETE CASCADE,
                    package_id bigint NOT NULL REFERENCES package ON DELETE CASCADE,
                    PRIMARY KEY (player_id, package_id)
                )
                """,
                """
                CREATE TABLE wrong_guess (
                    quiz_id bigint NOT NULL REFERENCES quiz ON DELETE CASCADE,
                    guess text NOT NULL,
                    plays integer NOT NULL,
                    PRIMARY KEY (quiz_id, guess)
                )
                """,
            ]
        ),
        (
            "pg10-kept-tallies-board-index-package-search",
            [
                // Counts kept rather than counted, as QuizStore's Tallies.swift explains: a package's plays and its
                // server plays' attempts and solves, its ranked plays per score, a quiz's attempts per stage reached,
                // a player's plays, points, quizzes played and solved, and solves per stage.
                """
                CREATE TABLE package_tally (
                    package_id bigint PRIMARY KEY REFERENCES package ON DELETE CASCADE,
                    plays bigint NOT NULL DEFAULT 0, server_attempts bigint NOT NULL DEFAULT 0,
                    server_solves bigint NOT NULL DEFAULT 0)
                """,
                "CREATE INDEX package_tally_on_plays ON package_tally (plays, package_id)",
                """
                CREATE TABLE leaderboard_score (
                    package_id bigint NOT NULL REFERENCES package ON DELETE CASCADE, score integer NOT NULL,
                    plays bigint NOT NULL, PRIMARY KEY (package_id, score))
                """,
                """
                CREATE TABLE quiz_stage_tally (
                    quiz_id bigint NOT NULL REFERENCES quiz ON DELETE CASCADE, stage integer NOT NULL,
                    attempts bigint NOT NULL, solved bigint NOT NULL, hinted bigint NOT NULL, PRIMARY KEY (quiz_id, stage))
                """,
                """
                CREATE TABLE player_tally (
                    player_id bigint PRIMARY KEY REFERENCES player ON DELETE CASCADE, plays bigint NOT NULL DEFAULT 0,
                    points bigint NOT NULL DEFAULT 0, played bigint NOT NULL DEFAULT 0, solved bigint NOT NULL DEFAULT 0)
                """,
                """
                CREATE TABLE player_stage_tally (
                    player_id bigint NOT NULL REFERENCES player ON DELETE CASCADE, stage integer NOT NULL,
                    solved bigint NOT NULL, PRIMARY KEY (player_id, stage))
                """,
                """
                INSERT INTO player_tally (player_id, plays, points, played, solved)
                SELECT p.player_id, p.plays, p.points, COALESCE(a.played, 0), COALESCE(a.solved, 0)
                FROM (SELECT player_id, COUNT(*) AS plays, COALESCE(SUM(score), 0) AS points FROM play
                      WHERE player_id IS NOT NULL AND public_id IS NOT NULL GROUP BY player_id) p
                LEFT JOIN (SELECT play.player_id, COUNT(*) AS played, COUNT(*) FILTER (WHERE attempt.correct) AS solved
                           FROM attempt JOIN play ON play.id = attempt.play_id
                           WHERE play.player_id IS NOT NULL AND play.public_id IS NOT NULL GROUP BY play.player_id) a
                    ON a.player_id = p.player_id
                """,
                """
                INSERT INTO player_stage_tally (player_id, stage, solved)
                SELECT play.player_id, attempt.stage_reached, COUNT(*) FROM attempt JOIN play ON play.id = attempt.play_id
                WHERE play.player_id IS NOT NULL AND play.public_id IS NOT NULL AND attempt.correct
                GROUP BY play.player_id, attempt.stage_reached
                """,
                """
                INSERT INTO package_tally (package_id, plays, server_attempts, server_solves)
                SELECT package.id, COALESCE(p.plays, 0), COALESCE(a.attempts, 0), COALESCE(a.solves, 0)
                FROM package
                LEFT JOIN (SELECT package_id, COUNT(*) AS plays FROM play GROUP BY package_id) p
                    ON p.package_id = package.id
                LEFT JOIN (SELECT play.package_id, COUNT(*) AS attempts, COUNT(*) FILTER (WHERE attempt.correct) AS solves
                           FROM attempt JOIN play ON play.id = attempt.play_id WHERE play.player_id IS NOT NULL
                           GROUP BY play.package_id) a ON a.package_id = package.id
                """,
                """
                INSERT INTO leaderboard_score (package_id, score, plays)
                SELECT package_id, score, COUNT(*) FROM play
                WHERE ranked AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
                GROUP BY package_id, score
                """,
                """
                INSERT INTO quiz_stage_tally (quiz_id, stage, attempts, solved, hinted)
                SELECT quiz_id, stage_reached, COUNT(*), COUNT(*) FILTER (WHERE correct),
                       COUNT(*) FILTER (WHERE hints_used > 0)
                FROM attempt GROUP BY quiz_id, stage_reached
                """,
                """
                CREATE FUNCTION uquiz_tally_package() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO package_tally (package_id) VALUES (NEW.id);
                    RETURN NULL;
                END
                $$
                """,
                "CREATE TRIGGER package_tally_new AFTER INSERT ON package FOR EACH ROW EXECUTE FUNCTION uquiz_tally_package()",
                // A play's attempts go before it, while the play still says whose they were (as in QuizStore).
                """
                CREATE FUNCTION uquiz_tally_play() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        UPDATE package_tally SET plays = plays + 1 WHERE package_id = NEW.package_id;
                        IF NEW.player_id IS NOT NULL AND NEW.public_id IS NOT NULL THEN
                            INSERT INTO player_tally (player_id, plays, points) VALUES (NEW.player_id, 1, COALESCE(NEW.score, 0))
                            ON CONFLICT (player_id) DO UPDATE
                            SET plays = player_tally.plays + 1, points = player_tally.points + excluded.points;
                        END IF;
                        IF NEW.ranked AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = NEW.player_id) THEN
                            INSERT INTO leaderboard_score (package_id, score, plays) VALUES (NEW.package_id, NEW.score, 1)
                            ON CONFLICT (package_id, score) DO UPDATE SET plays = leaderboard_score.plays + 1;
                        END IF;
                        RETURN NULL;
                    END IF;
                    DELETE FROM attempt WHERE play_id = OLD.id;
                    IF OLD.public_id IS NOT NULL THEN
                        UPDATE player_tally SET plays = plays - 1, points = points - COALESCE(OLD.score, 0)
                        WHERE player_id = OLD.player_id;
                    END IF;
                    -- A package's deletion takes its tallies along: a tally row this transaction changed and then
                    -- changed again after its package went would fail the foreign key, so they are left alone.
                    IF EXISTS (SELECT 1 FROM package WHERE id = OLD.package_id) THEN
                        UPDATE package_tally SET plays = plays - 1 WHERE package_id = OLD.package_id;
                        IF OLD.ranked AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = OLD.player_id) THEN
                            UPDATE leaderboard_score SET plays = plays - 1
                            WHERE package_id = OLD.package_id AND score = OLD.score;
                        END IF;
                    END IF;
                    RETURN OLD;
                END
                $$
                """,
                // The counts a play adds are added when its transaction commits (deferred constraint triggers): a
                // popular package's tally row is then locked only while the commit is written, not while the play's
                // attempts go in, so plays of one package finished at once wait less for each other.
                """
                CREATE CONSTRAINT TRIGGER play_tally_insert AFTER INSERT ON play DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION uquiz_tally_play()
                """,
                "CREATE TRIGGER play_tally_delete BEFORE DELETE ON play FOR EACH ROW EXECUTE FUNCTION uquiz_tally_play()",
                """
                CREATE FUNCTION uquiz_tally_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    owner bigint;
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        UPDATE package_tally
                        SET server_attempts = server_attempts + 1,
                            server_solves = server_solves + CASE WHEN NEW.correct THEN 1 ELSE 0 END
                        WHERE package_id = (SELECT package_id FROM play WHERE play.id = NEW.play_id AND play.player_id IS NOT NULL);
                        INSERT INTO quiz_stage_tally (quiz_id, stage, attempts, solved, hinted)
                        VALUES (NEW.quiz_id, NEW.stage_reached, 1, CASE WHEN NEW.correct THEN 1 ELSE 0 END,
                                CASE WHEN NEW.hints_used > 0 THEN 1 ELSE 0 END)
                        ON CONFLICT (quiz_id, stage) DO UPDATE
                        SET attempts = quiz_stage_tally.attempts + 1,
                            solved = quiz_stage_tally.solved + excluded.solved,
                            hinted = quiz_stage_tally.hinted + excluded.hinted;
                        SELECT player_id INTO owner FROM play
                        WHERE play.id = NEW.play_id AND play.player_id IS NOT NULL AND play.public_id IS NOT NULL;
                        IF FOUND THEN
                            UPDATE player_tally
                            SET played = played + 1, solved = solved + CASE WHEN NEW.correct THEN 1 ELSE 0 END
                            WHERE player_id = owner;
                            IF NEW.correct THEN
                                INSERT INTO player_stage_tally (player_id, stage, solved) VALUES (owner, NEW.stage_reached, 1)
                                ON CONFLICT (player_id, stage) DO UPDATE SET solved = player_stage_tally.solved + 1;
                            END IF;
                        END IF;
                    ELSE
                        -- Only what stays: the quiz or the package may be going in the same cascade, their tallies
                        -- with them (as in uquiz_tally_play).
                        UPDATE package_tally
                        SET server_attempts = server_attempts - 1,
                            server_solves = server_solves - CASE WHEN OLD.correct THEN 1 ELSE 0 END
                        WHERE package_id = (
                            SELECT play.package_id FROM play JOIN package ON package.id = play.package_id
                            WHERE play.id = OLD.play_id AND play.player_id IS NOT NULL);
                        UPDATE quiz_stage_tally
                        SET attempts = attempts - 1, solved = solved - CASE WHEN OLD.correct THEN 1 ELSE 0 END,
                            hinted = hinted - CASE WHEN OLD.hints_used > 0 THEN 1 ELSE 0 END
                        WHERE quiz_id = OLD.quiz_id AND stage = OLD.stage_reached
                          AND EXISTS (SELECT 1 FROM quiz WHERE quiz.id = OLD.quiz_id);
                        SELECT player_id INTO owner FROM play
                        WHERE play.id = OLD.play_id AND play.player_id IS NOT NULL AND play.public_id IS NOT NULL;
                        IF FOUND THEN
                            UPDATE player_tally
                            SET played = played - 1, solved = solved - CASE WHEN OLD.correct THEN 1 ELSE 0 END
                            WHERE player_id = owner;
                            IF OLD.correct THEN
                                UPDATE player_stage_tally SET solved = solved - 1
                                WHERE player_id = owner AND stage = OLD.stage_reached;
                            END IF;
                        END IF;
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE CONSTRAINT TRIGGER attempt_tally_insert AFTER INSERT ON attempt DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION uquiz_tally_attempt()
                """,
                "CREATE TRIGGER attempt_tally_delete AFTER DELETE ON attempt FOR EACH ROW EXECUTE FUNCTION uquiz_tally_attempt()",
                """
                CREATE FUNCTION uquiz_tally_ban() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        UPDATE leaderboard_score s SET plays = s.plays - 1 FROM play
                        WHERE play.player_id = NEW.player_id AND play.ranked
                          AND s.package_id = play.package_id AND s.score = play.score;
                    ELSE
                        INSERT INTO leaderboard_score (package_id, score, plays)
                        SELECT package_id, score, 1 FROM play WHERE player_id = OLD.player_id AND ranked
                        ON CONFLICT (package_id, score) DO UPDATE SET plays = leaderboard_score.plays + 1;
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                "CREATE TRIGGER banned_player_tally AFTER INSERT OR DELETE ON banned_player FOR EACH ROW EXECUTE FUNCTION uquiz_tally_ban()",
                // The leaderboard's whole order, so its first rows come from the index without sorting the ties.
                "DROP INDEX play_leaderboard",
                """
                CREATE INDEX play_board ON play (package_id, score DESC, elapsed_seconds, finished_at COLLATE "C", id)
                WHERE ranked
                """,
                // Browsing newest first orders by the bytes of the timestamp (COLLATE "C", the same on every server):
                // an index in the database's own collation does not serve that order.
                "DROP INDEX package_on_created_at_id",
                "CREATE INDEX package_on_created_at_c ON package (created_at COLLATE \"C\", id)",
                "CREATE INDEX publication_on_owner_id ON publication (owner_id)",
                // A quiz's most made wrong guesses, first, whatever the number of distinct ones.
                "CREATE INDEX wrong_guess_by_plays ON wrong_guess (quiz_id, plays DESC, guess)",
                // Substrings of a package's title or maker through trigram indexes, where the server lets this
                // database have pg_trgm (a trusted extension since PostgreSQL 13: the database's owner may create it);
                // where it does not, search scans as before.
                """
                DO $$
                BEGIN
                    CREATE EXTENSION IF NOT EXISTS pg_trgm;
                    CREATE INDEX package_title_trgm ON package USING gin (title gin_trgm_ops);
                    CREATE INDEX package_maker_trgm ON package USING gin (maker gin_trgm_ops);
                EXCEPTION WHEN insufficient_privilege OR undefined_file THEN
                    RAISE NOTICE 'pg_trgm is not available: searching packages by title scans them';
                END
                $$
                """,
            ]
        ),
        (
            "pg11-attempt-counts-per-statement",
            [
                // A finished play's attempts go in as one statement, and their counts are added once for that
                // statement, a package's and a player's rows once each: a popular package's tally row got a new
                // version per attempt (six for a five-quiz play), which piled up under many finishes at once. Not
                // deferrable (PostgreSQL defers only row triggers): the rows are locked from the attempts' statement,
                // the last of a finished play's, to its commit. Quiz rows are taken in one order, so that two plays
                // of one package never wait for each other crosswise.
                "DROP TRIGGER attempt_tally_insert ON attempt",
                """
                CREATE FUNCTION uquiz_tally_attempts_added() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE package_tally t
                    SET server_attempts = t.server_attempts + a.attempts, server_solves = t.server_solves + a.solves
                    FROM (SELECT play.package_id, COUNT(*) AS attempts, COUNT(*) FILTER (WHERE added.correct) AS solves
                          FROM added JOIN play ON play.id = added.play_id AND play.player_id IS NOT NULL
                          GROUP BY play.package_id) a
                    WHERE t.package_id = a.package_id;
                    INSERT INTO quiz_stage_tally (quiz_id, stage, attempts, solved, hinted)
                    SELECT quiz_id, stage_reached, COUNT(*), COUNT(*) FILTER (WHERE correct),
                           COUNT(*) FILTER (WHERE hints_used > 0)
                    FROM added GROUP BY quiz_id, stage_reached ORDER BY quiz_id, stage_reached
                    ON CONFLICT (quiz_id, stage) DO UPDATE
                    SET attempts = quiz_stage_tally.attempts + excluded.attempts,
                        solved = quiz_stage_tally.solved + excluded.solved,
                        hinted = quiz_stage_tally.hinted + excluded.hinted;
                    -- The player's row may not be there yet: their first play's own count is added at commit.
                    INSERT INTO player_tally (player_id, played, solved)
                    SELECT play.player_id, COUNT(*), COUNT(*) FILTER (WHERE added.correct)
                    FROM added JOIN play ON play.id = added.play_id
                    WHERE play.player_id IS NOT NULL AND play.public_id IS NOT NULL
                    GROUP BY play.player_id ORDER BY play.player_id
                    ON CONFLICT (player_id) DO UPDATE
                    SET played = player_tally.played + excluded.played, solved = player_tally.solved + excluded.solved;
                    INSERT INTO player_stage_tally (player_id, stage, solved)
                    SELECT play.player_id, added.stage_reached, COUNT(*)
                    FROM added JOIN play ON play.id = added.play_id
                    WHERE added.correct AND play.player_id IS NOT NULL AND play.public_id IS NOT NULL
                    GROUP BY play.player_id, added.stage_reached ORDER BY play.player_id, added.stage_reached
                    ON CONFLICT (player_id, stage) DO UPDATE SET solved = player_stage_tally.solved + excluded.solved;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER attempt_tally_insert AFTER INSERT ON attempt REFERENCING NEW TABLE AS added
                FOR EACH STATEMENT EXECUTE FUNCTION uquiz_tally_attempts_added()
                """,
            ]
        ),
        (
            "pg12-one-open-play-per-package",
            [
                "CREATE INDEX open_play_on_player_id_package_id ON open_play (player_id, package_id)",
                // As pg3's, and a player plays a package once at a time: a start of a package whose play by the
                // same player is open answers 'open ' and that play's id. Two starts of one player and package
                // take turns on an advisory lock held to the end of the call's transaction, so the second sees
                // the first's play.
                """
                CREATE OR REPLACE FUNCTION uquiz_start_open_play(
                    new_id text, new_player_id bigint, new_package_id bigint, new_daily_day text,
                    new_ends_by_micros bigint, new_record text, planned_quiz_ids bigint[], max_open integer,
                    exact_count_margin integer
                ) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    open_count integer;
                    current_plan bigint[];
                    existing text;
                BEGIN
                    -- This very start, made again after its connection failed: it went through.
                    PERFORM 1 FROM open_play WHERE id = new_id;
                    IF FOUND THEN RETURN 'started'; END IF;
                    PERFORM 1 FROM package WHERE id = new_package_id FOR SHARE;
                    IF NOT FOUND THEN RETURN 'outdated'; END IF;
                    SELECT SUM(n) INTO open_count FROM open_play_tally;
                    IF open_count + exact_count_margin >= max_open THEN
                        PERFORM pg_advisory_xact_lock(hashtextextended('uquiz open plays', 0));
                        SELECT COUNT(*) INTO open_count FROM (SELECT 1 FROM open_play LIMIT max_open) AS counted;
                    END IF;
                    IF open_count >= max_open THEN RETURN 'full'; END IF;
                    IF new_daily_day IS NOT NULL THEN
                        SELECT id INTO existing FROM open_play WHERE player_id = new_player_id AND daily_day = new_daily_day;
                        IF FOUND THEN RETURN 'daily ' || existing; END IF;
                    ELSE
                        PERFORM pg_advisory_xact_lock(
                            hashtextextended('uquiz open play ' || new_player_id || ' ' || new_package_id, 0));
                        SELECT id INTO existing FROM open_play
                        WHERE player_id = new_player_id AND package_id = new_package_id AND daily_day IS NULL LIMIT 1;
                        IF FOUND THEN RETURN 'open ' || existing; END IF;
                    END IF;
                    SELECT COALESCE(array_agg(quiz.id ORDER BY quiz.position), '{}') INTO current_plan FROM quiz
                    WHERE quiz.package_id = new_package_id AND EXISTS (SELECT 1 FROM area WHERE area.quiz_id = quiz.id);
                    IF new_daily_day IS NULL THEN
                        IF current_plan IS DISTINCT FROM planned_quiz_ids THEN RETURN 'outdated'; END IF;
                    ELSIF cardinality(planned_quiz_ids) <> 1 OR NOT (planned_quiz_ids[1] = ANY (current_plan)) THEN
                        RETURN 'outdated';
                    END IF;
                    -- A daily play of the same player and day inserted since the check makes the insert do nothing:
                    -- the answer names it. When that play ends meanwhile too, the insert is tried again.
                    FOR attempt IN 1..3 LOOP
                        INSERT INTO open_play (id, player_id, package_id, daily_day, ends_by_micros, record)
                        VALUES (new_id, new_player_id, new_package_id, new_daily_day, new_ends_by_micros, new_record)
                        ON CONFLICT (player_id, daily_day) WHERE daily_day IS NOT NULL DO NOTHING;
                        IF FOUND THEN RETURN 'started'; END IF;
                        SELECT id INTO existing FROM open_play WHERE player_id = new_player_id AND daily_day = new_daily_day;
                        IF FOUND THEN RETURN 'daily ' || existing; END IF;
                    END LOOP;
                    RETURN 'busy';
                END
                $$
                """,
            ]
        ),
        (
            "pg13-daily-per-language",
            [
                // Each language draws its own daily quiz, numbered from its own first day; a day chosen before (from
                // every package) belongs to its quiz's package's language.
                "ALTER TABLE daily ADD COLUMN language text CHECK (language IN ('ko', 'en'))",
                """
                UPDATE daily SET language = COALESCE(
                    (SELECT p.language FROM quiz JOIN package p ON p.id = quiz.package_id WHERE quiz.id = daily.quiz_id), 'en')
                """,
                "ALTER TABLE daily ALTER COLUMN language SET NOT NULL",
                "ALTER TABLE daily DROP CONSTRAINT daily_pkey",
                "ALTER TABLE daily DROP CONSTRAINT daily_number_key",
                "ALTER TABLE daily ADD PRIMARY KEY (day, language)",
                "ALTER TABLE daily ADD CONSTRAINT daily_language_number_key UNIQUE (language, number)",
                // As pg12's, and a play of an archived day's daily quiz (named in its record) is, as a daily play, a
                // play of that one quiz.
                """
                CREATE OR REPLACE FUNCTION uquiz_start_open_play(
                    new_id text, new_player_id bigint, new_package_id bigint, new_daily_day text,
                    new_ends_by_micros bigint, new_record text, planned_quiz_ids bigint[], max_open integer,
                    exact_count_margin integer
                ) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    open_count integer;
                    current_plan bigint[];
                    existing text;
                BEGIN
                    -- This very start, made again after its connection failed: it went through.
                    PERFORM 1 FROM open_play WHERE id = new_id;
                    IF FOUND THEN RETURN 'started'; END IF;
                    PERFORM 1 FROM package WHERE id = new_package_id FOR SHARE;
                    IF NOT FOUND THEN RETURN 'outdated'; END IF;
                    SELECT SUM(n) INTO open_count FROM open_play_tally;
                    IF open_count + exact_count_margin >= max_open THEN
                        PERFORM pg_advisory_xact_lock(hashtextextended('uquiz open plays', 0));
                        SELECT COUNT(*) INTO open_count FROM (SELECT 1 FROM open_play LIMIT max_open) AS counted;
                    END IF;
                    IF open_count >= max_open THEN RETURN 'full'; END IF;
                    IF new_daily_day IS NOT NULL THEN
                        SELECT id INTO existing FROM open_play WHERE player_id = new_player_id AND daily_day = new_daily_day;
                        IF FOUND THEN RETURN 'daily ' || existing; END IF;
                    ELSE
                        PERFORM pg_advisory_xact_lock(
                            hashtextextended('uquiz open play ' || new_player_id || ' ' || new_package_id, 0));
                        SELECT id INTO existing FROM open_play
                        WHERE player_id = new_player_id AND package_id = new_package_id AND daily_day IS NULL LIMIT 1;
                        IF FOUND THEN RETURN 'open ' || existing; END IF;
                    END IF;
                    SELECT COALESCE(array_agg(quiz.id ORDER BY quiz.position), '{}') INTO current_plan FROM quiz
                    WHERE quiz.package_id = new_package_id AND EXISTS (SELECT 1 FROM area WHERE area.quiz_id = quiz.id);
                    IF new_daily_day IS NULL AND (new_record::jsonb -> 'archivedDailyDay') IS NULL THEN
                        IF current_plan IS DISTINCT FROM planned_quiz_ids THEN RETURN 'outdated'; END IF;
                    ELSIF cardinality(planned_quiz_ids) <> 1 OR NOT (planned_quiz_ids[1] = ANY (current_plan)) THEN
                        RETURN 'outdated';
                    END IF;
                    -- A daily play of the same player and day inserted since the check makes the insert do nothing:
                    -- the answer names it. When that play ends meanwhile too, the insert is tried again.
                    FOR attempt IN 1..3 LOOP
                        INSERT INTO open_play (id, player_id, package_id, daily_day, ends_by_micros, record)
                        VALUES (new_id, new_player_id, new_package_id, new_daily_day, new_ends_by_micros, new_record)
                        ON CONFLICT (player_id, daily_day) WHERE daily_day IS NOT NULL DO NOTHING;
                        IF FOUND THEN RETURN 'started'; END IF;
                        SELECT id INTO existing FROM open_play WHERE player_id = new_player_id AND daily_day = new_daily_day;
                        IF FOUND THEN RETURN 'daily ' || existing; END IF;
                    END LOOP;
                    RETURN 'busy';
                END
                $$
                """,
            ]
        ),
        (
            "pg14-report-address-group",
            [
                // The network a report came from (a /24 or /48, never the whole address), as SQLite's v20.
                "ALTER TABLE report ADD COLUMN reporter_group text",
            ]
        ),
    ]

    static var names: [String] { all.map(\.name) }

    /// Migrates the database on `session` (a connection of its own: the advisory lock is the session's), refusing a
    /// database that holds a migration this build does not know before anything is written.
    /// - Returns: the migrations applied now.
    @discardableResult
    static func migrate(_ session: Session, url: PostgresURL, through last: String? = nil) async throws -> [String] {
        let exists = try await session.one("SELECT to_regclass('uquiz_migration') IS NOT NULL AS present")!.bool("present")
        var applied: Set<String> = []
        if exists {
            applied = Set(try await session.query("SELECT name FROM uquiz_migration").map { try $0.string("name") })
            let unknown = applied.subtracting(names).sorted()
            guard unknown.isEmpty else { throw StoreError.newerSchema(path: url.redacted, unknownMigrations: unknown) }
        } else {
            try await session.execute(
                "CREATE TABLE IF NOT EXISTS uquiz_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        }
        var done: [String] = []
        let wanted = last.flatMap { last in all.firstIndex { $0.name == last } }.map { all[...$0] } ?? all[...]
        for migration in wanted where !applied.contains(migration.name) {
            // Each migration and its record in one transaction: a failure leaves it unapplied, whole.
            try await session.execute("BEGIN")
            do {
                for statement in migration.statements { try await session.execute(statement) }
                try await session.execute("INSERT INTO uquiz_migration (name) VALUES ($1)", [.text(migration.name)])
                try await session.execute("COMMIT")
            } catch {
                try? await session.execute("ROLLBACK")
                throw error
            }
            done.append(migration.name)
        }
        return done
    }
}
