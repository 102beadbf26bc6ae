"""Who is online: any live socket of theirs, the lobby's or a table's (see games.liveness)."""

from games.liveness import alive_scopes, user_scope


def online_users(user_ids: list[int]) -> set[int]:
    """Return which of these users have a live socket, in the lobby or at a table."""
    alive = alive_scopes([user_scope(user_id) for user_id in user_ids])
    return {user_id for user_id in user_ids if user_scope(user_id) in alive}
