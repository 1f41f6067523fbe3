"""The MCP server: the conversation lifecycle and memory tools of specification 003 for one
person, over stdio or streamable HTTP (docs/mcp.md)."""
