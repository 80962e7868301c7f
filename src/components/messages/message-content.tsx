"use client";

import { Anchor, Code, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { cssColor, type MentionNames } from "./message-types.ts";

// One alternation, tried left to right: code first so nothing inside it is read as markup.
const TOKEN = new RegExp(
  [
    "```(?:[a-z0-9+-]*\\n)?([\\s\\S]*?)```", // 1 code block
    "`([^`\\n]+)`", // 2 inline code
    "\\*\\*([\\s\\S]+?)\\*\\*", // 3 bold
    "\\*([^*\\n]+)\\*|_([^_\\n]+)_", // 4, 5 italic
    "\\[([^\\]\\n]+)\\]\\((https?://[^\\s)]+)\\)", // 6, 7 masked link
    "(https?://[^\\s<]+[^\\s<.,:;\"')\\]])", // 8 bare link
    "<@!?(\\d+)>", // 9 user
    "<@&(\\d+)>", // 10 role
    "<#(\\d+)>", // 11 channel
    "@(everyone|here)", // 12
  ].join("|"),
  "g",
);

function Mention({ children, color }: { children: ReactNode; color?: string | null }) {
  return (
    <span className="message-mention" style={color ? { color, backgroundColor: `color-mix(in srgb, ${color} 15%, transparent)` } : undefined}>
      {children}
    </span>
  );
}

function link(href: string, children: ReactNode, key: number) {
  return (
    <Anchor key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" inherit>
      {children}
    </Anchor>
  );
}

/** Content as text nodes and elements only (never HTML): modest markdown and mention chips. */
export function renderInline(text: string, names: MentionNames): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const index = match.index;
    if (index > last) nodes.push(text.slice(last, index));
    last = index + match[0].length;
    const key = index;
    const [, block, code, bold, italicA, italicB, label, href, bare, user, role, channel, everyone] = match;
    if (block !== undefined) {
      nodes.push(
        <Code key={key} block className="message-code-block">
          {block.replace(/\n$/, "")}
        </Code>,
      );
    } else if (code !== undefined) nodes.push(<Code key={key}>{code}</Code>);
    else if (bold !== undefined) nodes.push(<strong key={key}>{renderInline(bold, names)}</strong>);
    else if (italicA !== undefined || italicB !== undefined) nodes.push(<em key={key}>{renderInline(italicA ?? italicB!, names)}</em>);
    else if (label !== undefined && href !== undefined) nodes.push(link(href, label, key));
    else if (bare !== undefined) nodes.push(link(bare, bare, key));
    else if (user !== undefined) nodes.push(<Mention key={key}>@{names.users.get(user) ?? "unknown-user"}</Mention>);
    else if (role !== undefined) {
      const found = names.roles.get(role);
      nodes.push(
        <Mention key={key} color={cssColor(found?.color)}>
          @{found?.name ?? "deleted-role"}
        </Mention>,
      );
    } else if (channel !== undefined) nodes.push(<Mention key={key}>#{names.channels.get(channel) ?? "unknown"}</Mention>);
    else if (everyone !== undefined) nodes.push(<Mention key={key}>@{everyone}</Mention>);
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

/** A message's (or embed's) text as a reader sees it. */
export function MessageText({ text, names, size = "sm", c }: { text: string; names: MentionNames; size?: string; c?: string }) {
  return (
    <Text size={size} c={c} className="message-text" component="div">
      {renderInline(text, names)}
    </Text>
  );
}
