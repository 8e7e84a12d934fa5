"""The live room's Prometheus metrics (the default registry, which ``/metrics`` serves): no
game id, token or seat in any label."""

from __future__ import annotations

from prometheus_client import Gauge, Histogram

OPEN_STREAMS = Gauge(
    "pingduel_open_streams",
    "Streams open on this worker: kind=page (a game page's hint stream) or stream (the API's)",
    ["kind"],
    # several workers (multiprocess mode): the sum of the live workers, no pid label
    multiprocess_mode="livesum",
)
HINT_LAG = Histogram(
    "pingduel_hint_lag_seconds",
    "From a command's commit to its hint reaching the hub, measured on the committing worker "
    "(PostgreSQL: the NOTIFY's round trip through the LISTEN connection; SQLite: nil)",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
