"""
An independent MCP client (the official Python SDK, `pip install mcp`) that reads every file
of an indexed repository through gitdex and checks each against `git show <commit>:<path>`,
byte for byte: text by lines (rebuilt with line_ending and ends_with_newline), a file with a
line longer than a read by bytes, binaries as base64, symlinks by their target.

    python3 read_every_file.py <mcp url> <owner/name> <git dir> <commit>

Prints one JSON object: files listed, files read equal, and every difference.
"""
import asyncio
import base64
import json
import subprocess
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

BOMS = {"utf-8": b"\xef\xbb\xbf", "utf-16le": b"\xff\xfe", "utf-16be": b"\xfe\xff"}
CODECS = {"utf-8": "utf-8", "utf-16le": "utf-16-le", "utf-16be": "utf-16-be", "windows-1252": "cp1252"}


class Reader:
    def __init__(self, session: ClientSession, repository: str):
        self.session = session
        self.repository = repository
        self.calls = {"list_files": 0, "read_file_lines": 0, "read_file_bytes": 0}

    async def call(self, name: str, arguments: dict) -> dict:
        result = await self.session.call_tool(name, {"repository": self.repository, **arguments})
        if result.is_error:
            text = "".join(getattr(block, "text", "") for block in result.content)
            raise RuntimeError(f"{name} {arguments}: {text}")
        return result.structured_content

    async def list_all(self) -> list:
        entries, cursor = [], None
        while True:
            self.calls["list_files"] += 1
            page = await self.call("list_files", {"folder": "", "depth": 64, "limit": 1000, **({"cursor": cursor} if cursor else {})})
            entries.extend(e for e in page["entries"] if e["type"] == "file")
            cursor = page["next_cursor"]
            if not cursor:
                return entries

    async def by_bytes(self, path: str, encoding: str) -> bytes:
        parts, offset, file_encoding, bom = [], 0, "utf-8", False
        while offset is not None:
            self.calls["read_file_bytes"] += 1
            out = await self.call("read_file", {"path": path, "offset": offset, "encoding": encoding})
            assert out["offset"] == offset, (path, out["offset"], offset)
            file_encoding, bom = out.get("file_encoding") or "utf-8", out.get("bom", False)
            parts.append(base64.b64decode(out["content"]) if encoding == "base64" else out["content"])
            offset = out["next_offset"]
        if encoding == "base64":
            return b"".join(parts)
        # Text pages in a row are the text of the bytes, BOM included (as U+FEFF).
        return "".join(parts).encode(CODECS[file_encoding])

    async def by_lines(self, path: str):
        """The file rebuilt from its numbered lines, or None when only bytes can rebuild it."""
        lines, start = [], 1
        while True:
            self.calls["read_file_lines"] += 1
            out = await self.call("read_file", {"path": path, "start_line": start})
            if out["kind"] == "symlink":
                return ("symlink", out["target"].encode("utf-8"))
            if out["flags"].get("binary"):
                return ("binary", None)
            if out["cut_line"] is not None or out.get("line_ending") == "mixed":
                return ("long-line", None)
            if out["total_lines"] > 0:
                lines.extend(out["content"].split("\n"))
            if out["next_start_line"] is None:
                break
            start = out["next_start_line"]
        end = "\r\n" if out.get("line_ending") == "crlf" else "\r" if out.get("line_ending") == "cr" else "\n"
        text = end.join(lines) + (end if out.get("ends_with_newline") else "")
        file_encoding = out.get("file_encoding") or "utf-8"
        return ("lines", (BOMS[file_encoding] if out.get("bom") else b"") + text.encode(CODECS[file_encoding]))


async def main(url: str, repository: str, git_dir: str, commit: str) -> dict:
    report = {"listed": 0, "equal": 0, "how": {}, "differences": [], "calls": {}}
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            reader = Reader(session, repository)
            files = await reader.list_all()
            report["listed"] = len(files)
            report["paths"] = sorted(f["path"] for f in files)
            for entry in files:
                path = entry["path"]
                if entry["kind"] == "submodule":
                    continue
                how, data = await reader.by_lines(path)
                if how == "binary":
                    how, data = "base64", await reader.by_bytes(path, "base64")
                elif how == "long-line":
                    how, data = "bytes", await reader.by_bytes(path, "text")
                truth = subprocess.run(["git", "-C", git_dir, "show", f"{commit}:{path}"], capture_output=True, check=True).stdout
                report["how"][how] = report["how"].get(how, 0) + 1
                if data == truth:
                    report["equal"] += 1
                else:
                    report["differences"].append({"path": path, "how": how, "got": len(data), "want": len(truth)})
            report["calls"] = reader.calls
    return report


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:5]))))
