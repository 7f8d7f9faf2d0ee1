"""Gunicorn's settings for pokerroom (read from the working directory: the Dockerfile's and docker-compose's web
service, and the benches, start gunicorn here). Command-line options still win.

Python's cyclic garbage collector stops the whole process while it runs; run in the middle of a request, a full
collection of a Django worker's objects adds tens of milliseconds to that request (the scale bench saw the p99 of
POST /api/rounds/batch/ fall from about 110 ms to 60 ms without it). So each worker freezes the objects of the
application as loaded (never scanned again), runs no collection while a request is handled, and collects once
every COLLECT_EVERY requests after the answer has been sent (`post_request` runs once the response is written).
The first requests load for good some 90,000 objects more (URL resolvers, compiled templates, serializers, the
database connection): a full collection that scanned them took 30-50 ms, every 20 requests, some 2 ms a request.
So what survives the collections after the FREEZE_AFTER-th requests is frozen too; a collection then scans what
the requests since the last one left (about 2.5 ms every 20 requests, each time the same). Memory stays bounded:
reference cycles are still collected, a few requests later, and objects are still freed by their reference counts.

The access log (docker-compose's `--access-logfile -`) is written by apps.screens.access_log.AccessLogger, which
leaves out the token of a display link's URL: the token alone opens the screen.
"""
import gc

from apps.screens.access_log import AccessLogger

#: Gunicorn's logger: its access log lines carry no display link's token.
logger_class = AccessLogger

#: The longest request line (method, path and query string) in bytes, gunicorn's default: a longer one is answered
#: 414 before Django sees it; a header longer than limit_request_field_size bytes, or more than limit_request_fields
#: headers, 431. The OpenAPI schema declares those answers on every operation (apps.core.schema.SERVER_ANSWERS).
limit_request_line = 4094
limit_request_field_size = 8190
limit_request_fields = 100

#: Requests a worker handles between two collections of its garbage.
COLLECT_EVERY = 20
#: After the collection that follows these requests, what survives it is frozen: what the first requests loaded.
#: Each is a multiple of COLLECT_EVERY (a collection happens there; tests/test_gunicorn_conf.py holds it).
FREEZE_AFTER = (100, 1000)


def post_worker_init(worker):
    """Once the application is loaded in the worker: freeze what it holds, and stop collecting during requests."""
    gc.freeze()
    gc.disable()
    worker.requests_handled = 0


def post_request(worker, req, environ, resp):
    """After a request's answer has been written: every COLLECT_EVERY requests, a full collection; after the
    FREEZE_AFTER-th requests, the survivors frozen."""
    worker.requests_handled = getattr(worker, "requests_handled", 0) + 1
    if worker.requests_handled % COLLECT_EVERY == 0:
        gc.collect()
        if worker.requests_handled in FREEZE_AFTER:
            gc.freeze()
