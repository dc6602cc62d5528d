internal import GRDB

/// Counts kept rather than counted: what a package's page, a play start, browsing by popularity, a leaderboard and a
/// maker's statistics show is read from a few rows whatever the number of plays, instead of joining every attempt of
/// every play of the package on each request. Triggers keep them in the transaction of every write that changes
/// them (the server's plays, the CLI's, deletions by cascade, bans), so no write path can forget one.
///
/// - `packageTally`: one row per package (made with it): its plays (every play, the CLI's too), and the attempts and
///   solves of the server's plays (those with a player).
/// - `leaderboardScore`: a package's ranked plays by players not banned, per score: the leaderboard's count, its
///   histogram, and the number of plays with a better score for a rank.
/// - `quizStageTally`: a quiz's attempts per stage reached, with how many of them solved it and asked for the hint:
///   the maker's statistics (attempts, solves, hint use, the mean stage and the solves per stage).
/// - `playerTally` and `playerStageTally`: a player's server plays, points, quizzes played and solved, and solves per
///   stage: what their page shows of all their plays.
///
/// A play is deleted only with its package (or by hand): its attempts are deleted first, by the play's trigger, while
/// the play still says whose they were, so the attempts' triggers need not depend on the order of cascades.
enum Tallies {
    static let sqliteSchema = """
        CREATE TABLE packageTally (
            packageId INTEGER PRIMARY KEY REFERENCES package(id) ON DELETE CASCADE,
            plays INTEGER NOT NULL DEFAULT 0,
            serverAttempts INTEGER NOT NULL DEFAULT 0,
            serverSolves INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX packageTally_on_plays ON packageTally(plays, packageId);
        CREATE TABLE leaderboardScore (
            packageId INTEGER NOT NULL REFERENCES package(id) ON DELETE CASCADE,
            score INTEGER NOT NULL,
            plays INTEGER NOT NULL,
            PRIMARY KEY (packageId, score)
        );
        CREATE TABLE playerTally (
            playerId INTEGER PRIMARY KEY REFERENCES player(id) ON DELETE CASCADE,
            plays INTEGER NOT NULL DEFAULT 0,
            points INTEGER NOT NULL DEFAULT 0,
            played INTEGER NOT NULL DEFAULT 0,
            solved INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE playerStageTally (
            playerId INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
            stage INTEGER NOT NULL,
            solved INTEGER NOT NULL,
            PRIMARY KEY (playerId, stage)
        );
        CREATE TABLE quizStageTally (
            quizId INTEGER NOT NULL REFERENCES quiz(id) ON DELETE CASCADE,
            stage INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            solved INTEGER NOT NULL,
            hinted INTEGER NOT NULL,
            PRIMARY KEY (quizId, stage)
        );

        INSERT INTO packageTally (packageId, plays, serverAttempts, serverSolves)
        SELECT package.id,
               (SELECT COUNT(*) FROM play WHERE play.packageId = package.id),
               (SELECT COUNT(*) FROM attempt JOIN play ON play.id = attempt.playId
                WHERE play.packageId = package.id AND play.playerId IS NOT NULL),
               (SELECT COALESCE(SUM(attempt.correct), 0) FROM attempt JOIN play ON play.id = attempt.playId
                WHERE play.packageId = package.id AND play.playerId IS NOT NULL)
        FROM package;
        INSERT INTO leaderboardScore (packageId, score, plays)
        SELECT packageId, score, COUNT(*) FROM play
        WHERE ranked AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = play.playerId)
        GROUP BY packageId, score;
        INSERT INTO quizStageTally (quizId, stage, attempts, solved, hinted)
        SELECT quizId, stageReached, COUNT(*), SUM(correct), SUM(hintsUsed > 0) FROM attempt GROUP BY quizId, stageReached;
        INSERT INTO playerTally (playerId, plays, points, played, solved)
        SELECT playerId, COUNT(*), COALESCE(SUM(score), 0),
               (SELECT COUNT(*) FROM attempt JOIN play p ON p.id = attempt.playId
                WHERE p.playerId = play.playerId AND p.publicId IS NOT NULL),
               (SELECT COALESCE(SUM(attempt.correct), 0) FROM attempt JOIN play p ON p.id = attempt.playId
                WHERE p.playerId = play.playerId AND p.publicId IS NOT NULL)
        FROM play WHERE playerId IS NOT NULL AND publicId IS NOT NULL GROUP BY playerId;
        INSERT INTO playerStageTally (playerId, stage, solved)
        SELECT play.playerId, attempt.stageReached, COUNT(*) FROM attempt JOIN play ON play.id = attempt.playId
        WHERE play.playerId IS NOT NULL AND play.publicId IS NOT NULL AND attempt.correct
        GROUP BY play.playerId, attempt.stageReached;

        CREATE TRIGGER package_tally_new AFTER INSERT ON package BEGIN
            INSERT INTO packageTally (packageId) VALUES (NEW.id);
        END;
        CREATE TRIGGER play_tally_insert AFTER INSERT ON play BEGIN
            UPDATE packageTally SET plays = plays + 1 WHERE packageId = NEW.packageId;
            INSERT INTO playerTally (playerId, plays, points)
            SELECT NEW.playerId, 1, COALESCE(NEW.score, 0) WHERE NEW.playerId IS NOT NULL AND NEW.publicId IS NOT NULL
            ON CONFLICT (playerId) DO UPDATE SET plays = plays + 1, points = points + excluded.points;
            INSERT INTO leaderboardScore (packageId, score, plays)
            SELECT NEW.packageId, NEW.score, 1
            WHERE NEW.ranked AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = NEW.playerId)
            ON CONFLICT (packageId, score) DO UPDATE SET plays = plays + 1;
        END;
        CREATE TRIGGER play_tally_delete BEFORE DELETE ON play BEGIN
            DELETE FROM attempt WHERE playId = OLD.id;
            UPDATE packageTally SET plays = plays - 1 WHERE packageId = OLD.packageId;
            UPDATE playerTally SET plays = plays - 1, points = points - COALESCE(OLD.score, 0)
            WHERE playerId = OLD.playerId AND OLD.publicId IS NOT NULL;
            UPDATE leaderboardScore SET plays = plays - 1
            WHERE packageId = OLD.packageId AND score = OLD.score AND OLD.ranked
              AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = OLD.playerId);
        END;
        CREATE TRIGGER attempt_tally_insert AFTER INSERT ON attempt BEGIN
            UPDATE packageTally SET serverAttempts = serverAttempts + 1, serverSolves = serverSolves + NEW.correct
            WHERE packageId = (SELECT packageId FROM play WHERE play.id = NEW.playId AND play.playerId IS NOT NULL);
            INSERT INTO quizStageTally (quizId, stage, attempts, solved, hinted)
            VALUES (NEW.quizId, NEW.stageReached, 1, NEW.correct, NEW.hintsUsed > 0)
            ON CONFLICT (quizId, stage) DO UPDATE
            SET attempts = attempts + 1, solved = solved + excluded.solved, hinted = hinted + excluded.hinted;
            UPDATE playerTally SET played = played + 1, solved = solved + NEW.correct
            WHERE playerId = (SELECT playerId FROM play WHERE play.id = NEW.playId AND play.publicId IS NOT NULL);
            INSERT INTO playerStageTally (playerId, stage, solved)
            SELECT play.playerId, NEW.stageReached, 1 FROM play
            WHERE play.id = NEW.playId AND play.playerId IS NOT NULL AND play.publicId IS NOT NULL AND NEW.correct
            ON CONFLICT (playerId, stage) DO UPDATE SET solved = solved + 1;
        END;
        CREATE TRIGGER attempt_tally_delete AFTER DELETE ON attempt BEGIN
            UPDATE packageTally SET serverAttempts = serverAttempts - 1, serverSolves = serverSolves - OLD.correct
            WHERE packageId = (SELECT packageId FROM play WHERE play.id = OLD.playId AND play.playerId IS NOT NULL);
            UPDATE quizStageTally
            SET attempts = attempts - 1, solved = solved - OLD.correct, hinted = hinted - (OLD.hintsUsed > 0)
            WHERE quizId = OLD.quizId AND stage = OLD.stageReached;
            UPDATE playerTally SET played = played - 1, solved = solved - OLD.correct
            WHERE playerId = (SELECT playerId FROM play WHERE play.id = OLD.playId AND play.publicId IS NOT NULL);
            UPDATE playerStageTally SET solved = solved - 1
            WHERE OLD.correct AND stage = OLD.stageReached
              AND playerId = (SELECT playerId FROM play WHERE play.id = OLD.playId AND play.publicId IS NOT NULL);
        END;
        CREATE TRIGGER bannedPlayer_tally_insert AFTER INSERT ON bannedPlayer BEGIN
            UPDATE leaderboardScore SET plays = plays - 1
            WHERE (packageId, score) IN (SELECT packageId, score FROM play WHERE playerId = NEW.playerId AND ranked);
        END;
        CREATE TRIGGER bannedPlayer_tally_delete AFTER DELETE ON bannedPlayer BEGIN
            INSERT INTO leaderboardScore (packageId, score, plays)
            SELECT packageId, score, 1 FROM play WHERE playerId = OLD.playerId AND ranked
            ON CONFLICT (packageId, score) DO UPDATE SET plays = plays + 1;
        END;
        """
}
