"""The vocabulary of a walk: what a policy asks for (an `Action`), what was done (a `Step`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core.model import Edge
from engine.core.paraphrase import Paraphrased
from engine.core.wire import Draft
from engine.navigation.outcomes import AlsoStated, Failure, FailureKind, GiveUp


class ActionKind(StrEnum):
    RETRIEVE = "retrieve"
    EXPAND = "expand"
    GROUND = "ground"
    ANSWER = "answer"
    ABSTAIN = "abstain"


@dataclass(frozen=True)
class Action:
    """What the policy wants next; an answer carries its typed `Draft`.

    An abstention carries its `failure`; a draft the reasoner itself does not stand
    behind (a bare inference left for the router to refuse) carries its `given_up`; an
    answer whose sentence other papers state word for word names them in `also_stated`.
    """

    kind: ActionKind
    target: str | None = None
    reason: str = ""
    draft: Draft | None = None
    failure: Failure | None = None
    given_up: GiveUp | None = None
    also_stated: AlsoStated | None = None
    # The trained reader read the answer's sentence as a paraphrase of the question.
    paraphrased: Paraphrased | None = None

    @classmethod
    def expand(cls, target: str, reason: str = "") -> Action:
        return cls(ActionKind.EXPAND, target, reason)

    @classmethod
    def ground(cls, target: str, reason: str = "") -> Action:
        return cls(ActionKind.GROUND, target, reason)

    @classmethod
    def answer(
        cls,
        draft: Draft,
        reason: str = "",
        *,
        also_stated: AlsoStated | None = None,
        paraphrased: Paraphrased | None = None,
    ) -> Action:
        return cls(
            ActionKind.ANSWER, None, reason, draft, also_stated=also_stated, paraphrased=paraphrased
        )

    @classmethod
    def give_up(cls, draft: Draft, given_up: GiveUp) -> Action:
        """Answer with `draft` while saying why the reasoner does not stand behind it."""
        return cls(ActionKind.ANSWER, None, given_up.note, draft, given_up=given_up)

    @classmethod
    def abstain(cls, reason: str | Failure) -> Action:
        """Abstain; a plain reason is a failure of kind `abstained`."""
        failure = reason if isinstance(reason, Failure) else Failure(FailureKind.ABSTAINED, reason)
        return cls(ActionKind.ABSTAIN, None, failure.message, failure=failure)


@dataclass(frozen=True)
class Step:
    """One recorded step of a navigation."""

    index: int
    action: ActionKind
    target: str | None
    reason: str
    nodes_added: tuple[str, ...] = ()
    edges_added: tuple[Edge, ...] = ()
    ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "action": self.action.value,
            "target": self.target,
            "reason": self.reason,
            "nodes_added": list(self.nodes_added),
            "edges_added": [e.to_dict() for e in self.edges_added],
            "ms": round(self.ms, 3),
        }
