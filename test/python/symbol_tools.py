"""
An independent MCP client (the official Python SDK, `pip install mcp`) that calls the symbol
tools (find_symbol, file_outline, find_references) over streamable HTTP. The SDK checks every
structured result against the tool's output schema from tools/list (a mismatch raises), so a
call that comes back at all is one whose answer fits the schema an agent was told about.

    python3 symbol_tools.py <mcp url> '<json list of [tool, arguments]>'

Prints one JSON object: the tools listed with their input schemas' required arguments, and for
each call its structured content (or its error text).
"""
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, calls: list) -> dict:
    report = {"tools": {}, "results": []}
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            listed = await session.list_tools()
            for tool in listed.tools:
                report["tools"][tool.name] = {"required": tool.input_schema.get("required", []), "has_output_schema": tool.output_schema is not None}
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                if result.is_error:
                    report["results"].append({"tool": name, "error": "".join(getattr(b, "text", "") for b in result.content)})
                else:
                    report["results"].append({"tool": name, "structured": result.structured_content})
    return report


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))))
