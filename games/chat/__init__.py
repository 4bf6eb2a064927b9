"""Table chat: the stored lines and abuse reports (`models`), posting, history, removal
and reports (`service`), their admin pages (`admin`).

Kept free of imports so that `games.models` can load the chat models without loading
the service (which reads the seats of `games.models`).
"""
