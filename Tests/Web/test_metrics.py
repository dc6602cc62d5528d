"""`GET /metrics` of the real `uquiz serve`, read by the Prometheus client's own text-format parser: only for the
metrics token, and its figures move when the server works."""

import json
import unittest

from prometheus_client.parser import text_string_to_metric_families

from harness import AREAS, Server

TOKEN = "metrics-token-not-for-logs-7f3a"


class MetricsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(arguments=["--limit", "guesses=1/3600"], environment_extra={"UQUIZ_METRICS_TOKEN": TOKEN})

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def scrape(self):
        status, headers, body = self.server.request("GET", "/metrics", token=TOKEN)
        self.assertEqual(status, 200, body)
        self.assertTrue(headers["Content-Type"].startswith("text/plain; version=0.0.4"), headers["Content-Type"])
        samples = {}
        for family in text_string_to_metric_families(body.decode()):
            for sample in family.samples:
                samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
        return samples

    def value(self, samples, name, **labels):
        return samples.get((name, tuple(sorted(labels.items()))), 0)

    def test_only_the_token_reads_the_metrics(self):
        for token in (None, "wrong", TOKEN + "x"):
            status, headers, _ = self.server.request("GET", "/metrics", token=token)
            self.assertEqual(status, 401, token)
            self.assertEqual(headers["WWW-Authenticate"], "Bearer")

    def test_figures_move_when_the_server_works(self):
        before = self.scrape()
        status, _, body = self.server.request("POST", "/v1/players", {"name": "Metered"})
        self.assertEqual(status, 201, body)
        player = json.loads(body)["token"]
        code = self.server.publish("Metered maker", {
            "format": 1, "title": "Metered", "level": "beginner", "language": "en",
            "quizzes": [{"movie": 19, "areas": AREAS}],
        })
        status, _, body = self.server.request("POST", f"/v1/packages/{code}/plays", token=player)
        self.assertEqual(status, 201, body)
        play = json.loads(body)["id"]
        # The first guess is judged (too early: the quiz has not begun, or a wrong title); the second is over the
        # one-guess limit of this server.
        self.server.request("POST", f"/v1/plays/{play}/guesses", {"quiz": 1, "text": "Nope"}, token=player)
        status, _, _ = self.server.request("POST", f"/v1/plays/{play}/guesses", {"quiz": 1, "text": "Nope"}, token=player)
        self.assertEqual(status, 429)
        after = self.scrape()

        def moved(name, **labels):
            return self.value(after, name, **labels) - self.value(before, name, **labels)

        self.assertEqual(moved("uquiz_plays_started_total", kind="package"), 1)
        self.assertEqual(moved("uquiz_rate_limit_refusals_total", limit="guesses"), 1)
        self.assertEqual(moved("uquiz_http_requests_total", route="/v1/packages/{code}/plays", method="POST", status="201"), 1)
        self.assertGreaterEqual(moved("uquiz_http_request_duration_seconds_count", route="/v1/players", method="POST", status="201"), 1)
        self.assertGreaterEqual(moved("uquiz_store_call_duration_seconds_count", operation="insertOpenPlay", outcome="ok"), 1)
        self.assertEqual(self.value(after, "uquiz_open_plays"), 1)
        self.assertEqual(self.value(after, "uquiz_open_rooms"), 0)
        # No label holds a code, a play id or a token: every value is one of a few.
        for (_, labels) in after:
            for _, value in labels:
                self.assertNotIn(code, value)
                self.assertNotIn(play, value)
                self.assertNotIn(player, value)
        self.assertNotIn(TOKEN, (self.server.folder / "server.log").read_text())


if __name__ == "__main__":
    unittest.main()
