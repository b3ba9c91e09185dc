from dataclasses import dataclass, field

from invites.templates import render


@dataclass
class Message:
    to: str
    subject: str
    body: str


@dataclass
class Outbox:
    messages: list[Message] = field(default_factory=list)

    def add(self, message: Message) -> None:
        if any(m.to == message.to for m in self.messages):
            raise ValueError(f"{message.to} is invited twice")
        self.messages.append(message)

    def summary(self) -> str:
        return f"{len(self.messages)} messages: " + ", ".join(m.to for m in self.messages)


def build_invites(guests: list[dict[str, str]], event: dict[str, str]) -> Outbox:
    outbox = Outbox()
    for guest in guests:
        to, body = render(guest, event)
        outbox.add(Message(to=to, subject=f"Invitation: {event['event']}", body=body))
    return outbox
