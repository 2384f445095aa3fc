"""
An independent MCP client (the official Python SDK, `pip install mcp`) that subscribes to a
repository resource of gitdex over Streamable HTTP and waits for its
notifications/resources/updated.

    python3 subscribe_and_wait.py <mcp url> <resource uri>

Prints "subscribed" once the subscription is acknowledged, then one JSON object with the URI
the notification named (or an error after 60 s).
"""
import json
import sys

import anyio
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, uri: str) -> None:
    updated = anyio.Event()
    seen: dict = {}

    async def on_message(message) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            seen["uri"] = str(message.params.uri)
            updated.set()

    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1], message_handler=on_message) as session:
            initialized = await session.initialize()
            subscribe = bool(initialized.capabilities.resources and initialized.capabilities.resources.subscribe)
            await session.subscribe_resource(uri)
            print("subscribed", flush=True)
            with anyio.fail_after(60):
                await updated.wait()
            print(json.dumps({"uri": seen["uri"], "capability": subscribe}), flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
