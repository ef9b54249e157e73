from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    """One message to one player, already in their words and zone; nothing in it another may not see."""

    kind: str  # a notify.KINDS key: "round_opened", "reminder", "results", "your_turn", "chat_message", ...
    subject: str  # one line (an email's subject, a push's title, a DM's first bold line)
    text: str  # plain text, times already in the player's zone
    link: str  # absolute URL of the exact page (settings.GENIUS_SITE_URL + path)


@dataclass(frozen=True)
class Outcome:
    channel: str  # "discord" | "push" | "email"
    reached: bool
    why: str = ""  # if not reached: words a host/player understands ("Discord DMs are closed")
