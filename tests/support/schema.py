"""The suite's migrated test database, for the harnesses that start deployments or clusters of their own: they copy
its tables (`--schema-from`, pg_dump) instead of running every migration again (about half a minute of CPU each)."""
import os
from urllib.parse import urlsplit


def suite_database_url() -> str:
    """The URL of the suite's test database (migrated at the session's start), read by DATABASE_URL's login. Use it
    from a test or fixture that has the test database (`db`)."""
    from django.db import connection

    database = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pokerroom"))
    return database._replace(path=f"/{connection.settings_dict['NAME']}").geturl()  # a socket's ?host= kept
