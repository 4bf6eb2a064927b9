"""How the site's consumers run the channel messages they receive: straight to the
handler, without Channels' per-message database clean-up (see `DirectDispatch`)."""
from channels.consumer import get_handler_name


class DirectDispatch:
    """Dispatch each message straight to its handler.

    Channels' own `dispatch` first runs `close_old_connections` through `sync_to_async`,
    i.e. on the process's one database thread, for every message: each forwarded view
    then queued behind every database call of the process. Our handlers reach the
    database only through `database_sync_to_async`, which closes old connections itself
    before and after each call."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
