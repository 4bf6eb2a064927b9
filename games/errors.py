"""The error codes a player can receive (docs/protocol.md §8): their translated messages
and `TableError`, the exception of a refused table operation.

Codes: RULES.md §7 plus the server's own (`stale_version`, `bad_frame`, `not_seated`,
`rate_limited`, and the table-management codes of `TableError`).
"""
from django.utils.translation import gettext, gettext_lazy as _


class TableError(Exception):
    """A refused table operation (`games.play`, `games.snapshot`). `code` is a key of
    `ERROR_MESSAGES`; nothing was changed."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


ERROR_MESSAGES = {
    # RULES.md §7
    "not_your_turn": _("It is not your turn."),
    "wrong_phase": _("You cannot do that now: draw a tile first, or you have already drawn."),
    "tile_not_in_rack": _("That tile is not in your rack."),
    "invalid_meld": _("That is not a valid meld."),
    "below_threshold": _("Your opening does not reach the threshold."),
    "not_opened": _("You must open before doing that."),
    "pairs_only": _("You opened with pairs: you may only lay new pairs."),
    "melds_only": _("You opened with melds: you may not lay pairs."),
    "cannot_add": _("That tile cannot be added to that meld."),
    "cannot_swap": _("That tile cannot replace a joker in that meld."),
    "must_keep_tile": _("You must keep one tile to discard."),
    "discard_unused": _("A taken discard must be placed on the table in the same move."),
    "nothing_to_take": _("There is no discard to take."),
    "empty_pile": _("The pile is empty."),
    "table_mismatch": _("The new table does not match the old table plus your tiles."),
    "no_tiles_played": _("You must lay at least one tile from your rack."),
    "initial_meld_touches_table": _("Your first meld must use only tiles from your rack."),
    "playable_discard": _("That tile could be played on the table: discarding it costs a penalty."),
    "joker_discard": _("Discarding a joker costs a penalty."),
    "round_over": _("The round is over."),
    "bad_action": _("That action is not understood."),
    # server codes (docs/protocol.md §8)
    "stale_version": _("The game has moved on; your table has been refreshed."),
    "bad_frame": _("Malformed message."),
    "not_seated": _("You are not seated at this table."),
    "rate_limited": _("Too many messages; slow down."),
    "bad_text": _("That text holds characters that cannot be sent (control characters or invalid Unicode)."),
    "too_many_sockets": _("Too many open connections: close another tab of the game, then reload."),
    "bad_seed": _("That seed cannot be used: 1 to 128 characters from the keyboard's Latin letters A-Z and a-z, "
                  "digits 0-9, spaces and ASCII punctuation."),
    "seed_closed": _("Seeds for this round are no longer accepted: it is dealt, or not committed yet."),
    # table management (TableError)
    "not_started": _("The match has not started yet."),
    "table_not_open": _("This table is no longer open."),
    "table_full": _("This table is full."),
    "seat_taken": _("That seat is taken."),
    "not_creator": _("Only the table's creator can do that."),
    "bad_options": _("Those table options are not valid."),
    "not_found": _("No such table."),
    "too_many_tables": _("You have created too many tables: finish or close one, or wait an hour, first."),
    "invite_needed": _("This table is private: open its invite link to take a seat or watch."),
    "seat_empty": _("That seat is free."),
    "cannot_remove_self": _("You cannot remove yourself: close the table instead."),
    "removed_from_table": _("The table's creator removed you from this table."),
}


def error_message(code):
    """The message for `code` (str) in the active language; unknown codes get a generic text."""
    message = ERROR_MESSAGES.get(code)
    if message is None:
        return gettext("That move is not allowed (%(code)s).") % {"code": code}
    return str(message)
