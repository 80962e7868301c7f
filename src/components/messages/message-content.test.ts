import { MantineProvider } from "@mantine/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderInline } from "./message-content.tsx";
import type { MentionNames } from "./message-types.ts";

const names: MentionNames = {
  users: new Map([["11", "ada"]]),
  roles: new Map([["22", { name: "Ops", color: 0xe67e22 }]]),
  channels: new Map([["33", "general"]]),
};

function html(text: string): string {
  return renderToStaticMarkup(createElement(MantineProvider, null, createElement("div", null, ...renderInline(text, names))));
}

describe("message text", () => {
  it("shows mentions as named chips, the role's in its colour, and unknown ones as such", () => {
    const out = html("hi <@11> <@!11> <@&22> <#33> <#44> @everyone");
    expect(out.match(/class="message-mention"[^>]*>[^<]*</g)?.map((chip) => chip.replace(/.*>/, "").slice(0, -1))).toEqual([
      "@ada",
      "@ada",
      "@Ops",
      "#general",
      "#unknown",
      "@everyone",
    ]);
    expect(out).toContain("color:#e67e22");
  });

  it("renders bold, italic, code and links, and leaves HTML as text", () => {
    const out = html("**bold _both_** `x<y` [docs](https://example.com/a) <script>alert(1)</script>");
    expect(out).toContain("<strong>bold <em>both</em></strong>");
    expect(out).toMatch(/<code[^>]*>x&lt;y<\/code>/);
    expect(out).toMatch(/<a[^>]*href="https:\/\/example.com\/a"[^>]*>docs<\/a>/);
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).not.toContain("<script>");
  });

  it("reads nothing inside code as markup", () => {
    expect(html("```\n**not bold** <@11>\n```")).toMatch(/<pre[^>]*>\*\*not bold\*\* &lt;@11&gt;<\/pre>/);
  });
});
