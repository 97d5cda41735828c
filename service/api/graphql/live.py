"""gameEvents rendered once per audience: every socket that would get the same frame gets the
same text.

What an event of `gameEvents` sends is the subscriber's selection run over the event
(`GameEvent`, and through `game` the game at that version as the subscriber sees it). That
depends on the document, the variables its selection reads, the subscriber (its token, the
tenant key of its upgrade request, its language) and the event: nothing else. So the `next`
payload is rendered once per (audience, game, version, status) and every socket of that
audience is sent the same text; a thousand spectators of a game cost one render per version,
a seat's private view one render per seat. Each subscriber follows the game on its own
(service/core/reads/following.py: its position, catch-up and resume) until it has sent a live
version; then, on a parked socket (edge/parking.py), it joins the `Crowd` of its game and
caller (crowds.py), whose one follower writes every member, and needs no task of its own.

A document takes this path when it is valid, its operation is a subscription of `gameEvents`
alone (no directive on it) and its variables coerce; strawberry streams everything else, and
refuses what is wrong, as before. tests/api/graphql/test_live.py proves both paths send the
same frames.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass
from functools import partial
from typing import Any

import msgspec
from graphql import (
    DocumentNode,
    ExecutionResult,
    Executor,
    FieldNode,
    GraphQLError,
    GraphQLSchema,
    OperationType,
    VariableNode,
    create_source_event_stream,
    execute_subscription_event,
    get_operation_ast,
    specified_rules,
    visit,
)
from graphql.language import Visitor
from strawberry.schema.schema import validate_document

from service import metrics
from service.api.edge.frames import Frames
from service.api.edge.guard import client_address
from service.api.edge.localized import language
from service.api.edge.pacing import Pacer
from service.api.edge.parking import Wire
from service.api.graphql.crowds import Crowd, Member
from service.api.graphql.documents import Documents, Lru
from service.api.graphql.schema import typed_errors
from service.api.graphql.types import GameEvent, GameStatus
from service.core import Caller

ROOT = "gameEvents"


@dataclass(frozen=True)
class Plan:
    """A gameEvents document that takes the shared path."""

    document: DocumentNode
    operation_name: str | None
    read: tuple[str, ...]  # the variables its selection reads (the root's arguments do not)
    document_key: tuple[str, str | None]  # its query text and operation name


class Audience:
    """The subscribers that get the same frames, and the executor that renders them."""

    __slots__ = ("executor", "key", "members", "speech")

    def __init__(self, key: tuple[Any, ...], executor: Executor[Any], speech: str) -> None:
        self.key, self.executor, self.speech, self.members = key, executor, speech, 0


class Live:
    """The shared path of one schema: plans by document, and the frames rendered."""

    def __init__(
        self,
        schema: GraphQLSchema,
        documents: Documents,
        log_errors: Callable[[list[GraphQLError]], None],
        pacer: Pacer,
        queue: int,
        size: int = 2048,
    ) -> None:
        self.schema = schema
        self.queue = queue  # RULES_SUBSCRIBER_QUEUE: a member's versions behind (crowds.py)
        self.crowds: dict[tuple[Any, ...], Crowd] = {}
        self.documents = documents
        self.log_errors = log_errors
        self.pacer = pacer
        self.plans: Lru = Lru(1024)
        self.frames = Frames(size)
        self.audiences: dict[tuple[Any, ...], Audience] = {}

    def plan(self, query: str, operation_name: str | None) -> Plan | None:
        key = (query, operation_name)
        found: Plan | bool | None = self.plans.get(key, False)
        if found is False:
            found = self.plans.put(key, self._plan(query, operation_name))
        return found if isinstance(found, Plan) else None

    def _plan(self, query: str, operation_name: str | None) -> Plan | None:
        documents = self.documents
        parsed = documents.parsed.get(query) or documents.parsed.put(query, documents.parse(query))
        if isinstance(parsed, GraphQLError):
            return None
        document = parsed[0]
        operation = get_operation_ast(document, operation_name)
        if operation is None or operation.operation is not OperationType.SUBSCRIPTION:
            return None
        roots = operation.selection_set.selections
        if len(roots) != 1 or not isinstance(roots[0], FieldNode):
            return None
        root = roots[0]
        if root.name.value != ROOT or root.directives:
            return None
        if validate_document(self.schema, document, (*specified_rules, *documents.limits)):
            return None
        read = _read_variables(document, root)
        return Plan(document, operation_name, read, (query, operation_name))

    async def stream(
        self,
        plan: Plan,
        context: dict[str, Any],
        variables: dict[str, Any] | None,
        send: Callable[[str], Awaitable[None]],
        wire: Wire | None = None,
        prefix: str = "",
    ) -> bool | Member:
        """Every frame of one subscription through `send`, each rendered once per audience;
        True once it ended. False, having sent nothing, when the subscription cannot start
        this way (strawberry then runs it and answers its errors). On a parked socket
        (`wire`, with `prefix` before each payload), its `Member` once it joined its crowd:
        the crowd writes it from then on, and ends it."""
        executor = Executor.build(
            self.schema,
            plan.document,
            context_value=context,
            raw_variable_values=variables,
            operation_name=plan.operation_name,
        )
        if isinstance(executor, list):
            return False
        source = create_source_event_stream(executor)
        if isinstance(source, Awaitable):
            source = await source
        if isinstance(source, ExecutionResult):
            return False
        audience = self._join(plan, context, variables, executor)
        metrics.FOLLOWING.value += 1
        member = None
        try:
            async with aclosing(source):  # type: ignore[type-var]
                member = await self._follow(source, audience, context, send, wire, prefix)
                if member is not None and member.crowd is not None:
                    # this follower holds the game's channel until the crowd does too
                    await member.crowd.subscribed.wait()
        except BaseException:  # cancelled (the client's `complete`) while its own follower closed
            if member is not None:
                member.cancel()  # out of its crowd again
                member = None
            raise
        finally:
            if member is None:
                self._left(audience)
        if member is None:
            return True
        member.on_close(partial(self._left, audience))
        return member  # parked: its crowd writes it, and it needs no task (crowds.py)

    async def _follow(
        self,
        events: Any,
        audience: Audience,
        context: dict[str, Any],
        send: Callable[[str], Awaitable[None]],
        wire: Wire | None,
        prefix: str,
    ) -> Member | None:
        """Send each event's frame; the versions the subscriber missed are paced
        (edge/pacing.py), the live ones are not. On a parked socket, the member of its crowd
        once it joined one (then its own follower is done)."""
        token, replay = context.get("token"), None
        request = context.get("request")
        address = client_address(request.scope) if request is not None else ""
        while True:
            try:
                event = await anext(events)
            except StopAsyncIteration:
                return None
            except Exception as error:  # a refusal while following ends it, as in strawberry
                if not isinstance(error, GraphQLError):
                    error = GraphQLError(str(error), original_error=error)
                await send(self.failure(audience, error))
                return None
            started = time.perf_counter() if event.catching_up else 0.0
            await send(await self.frame(audience, event))
            if event.catching_up:
                replay = replay or self.pacer.replay(token, address, event.game_id)
                await replay.paced(time.perf_counter() - started)
            elif wire is not None and event.status is GameStatus.ACTIVE:
                member = self._park(audience, context, event, wire, prefix)
                if member is not None:
                    return member

    async def frame(self, audience: Audience, event: GameEvent) -> str:
        """The `next` payload of `event` for `audience`, rendered once for all its sockets."""
        key = (audience.key, event.game_id, event.version, event.status)
        # the audience's other sockets find the frame made: no coroutine for them
        frame = self.frames.kept(key)
        if frame is None:
            frame = await self.frames.payload(key, partial(self._render, audience, event))
        return frame

    def failure(self, audience: Audience, error: GraphQLError) -> str:
        return self._encode(ExecutionResult(None, [error]), audience.speech)

    def _park(
        self,
        audience: Audience,
        context: dict[str, Any],
        event: GameEvent,
        wire: Wire,
        prefix: str,
    ) -> Member | None:
        """The subscriber as a member of the crowd of its game and caller (crowds.py), or
        None while that crowd is ahead of it."""
        request = context.get("request")
        api_key = request.headers.get("x-api-key") if request is not None else None
        token = context.get("token")
        key = (str(event.game_id), token, api_key)
        crowd = self.crowds.get(key)
        if crowd is not None and (event.version < crowd.last or crowd.task.done()):
            return None
        member = Member(audience, wire, prefix.encode(), event.version)
        if crowd is None:
            service = context["service"]
            caller = Caller(token, service.tenant_of(api_key))
            crowd = self.crowds[key] = Crowd(
                key, self.crowds, service, caller, event.version, self.frame, self.failure,
                self.queue,
            )  # fmt: skip
        crowd.join(member)
        member.crowd = crowd
        return member

    def _join(
        self,
        plan: Plan,
        context: dict[str, Any],
        variables: dict[str, Any] | None,
        executor: Executor[Any],
    ) -> Audience:
        """The subscriber's audience, who get the same frames: the document, the variables its
        selection reads, the caller (token, tenant key) and its language. Its first member's
        executor renders for all."""
        request = context.get("request")
        headers = request.headers if request is not None else {}
        read = {name: (variables or {}).get(name) for name in plan.read}
        speech = language(headers.get("accept-language"))
        key = (
            plan.document_key,
            msgspec.json.encode(read, order="sorted") if read else b"",
            context.get("token"),
            headers.get("x-api-key"),
            speech,
        )
        audience = self.audiences.get(key)
        if audience is None:
            audience = self.audiences[key] = Audience(key, executor, speech)
        audience.members += 1
        return audience

    def _left(self, audience: Audience) -> None:
        metrics.FOLLOWING.value -= 1
        audience.members -= 1
        if not audience.members:
            del self.audiences[audience.key]

    def _render(self, audience: Audience, event: Any) -> str | Awaitable[str]:
        """The payload of `event`: at once for a selection that needs no I/O (graphql-core
        then executes synchronously), else a coroutine."""
        metrics.LIVE_RENDERS.inc()
        result = execute_subscription_event(audience.executor.build_per_event_executor(event))
        if isinstance(result, ExecutionResult):
            return self._encode(result, audience.speech)
        return self._encoded(result, audience.speech)

    async def _encoded(self, result: Awaitable[ExecutionResult], speech: str) -> str:
        return self._encode(await result, speech)

    def _encode(self, result: ExecutionResult, speech: str) -> str:
        payload: dict[str, Any] = {"data": result.data}
        if result.errors:
            errors = typed_errors(result.errors, speech)
            self.log_errors(errors)
            payload["errors"] = [error.formatted for error in errors]
        return msgspec.json.encode(payload).decode()


def _read_variables(document: DocumentNode, root: FieldNode) -> tuple[str, ...]:
    """The variables the document reads anywhere but in the root field's arguments."""
    arguments = set(map(id, root.arguments or ()))
    names: set[str] = set()

    class Reads(Visitor):
        def enter_argument(self, node: Any, *_: Any) -> Any:
            return False if id(node) in arguments else None  # skip the root's arguments

        def enter_variable(self, node: VariableNode, *_: Any) -> None:
            names.add(node.name.value)

        def enter_variable_definition(self, *_: Any) -> Any:
            return False

    for definition in document.definitions:
        visit(definition, Reads())
    return tuple(sorted(names))
