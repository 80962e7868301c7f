import { MESSAGE_LIMITS, type TEmbed } from "~/server/messages/message.schema.ts";
import type { TGithubPayload, TGithubUser } from "./github-payload.ts";

/** The colours the platform gives each kind of code-host embed. */
export const GITHUB_COLORS = {
  commits: 0x7289da,
  issueOpened: 0xeb6420,
  pullRequestOpened: 0x009800,
  closed: 0x000000,
  comment: 0xe68d60,
  success: 0x43b581,
  failure: 0xf04747,
  neutral: 0x99aab5,
} as const;

/** Bodies of issues, comments and reviews are shown only in part, as on the platform. */
const BODY_PREVIEW = 500;

/** Text cut to `max` characters, ending with an ellipsis when cut. */
export function shorten(text: string | null | undefined, max: number): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

export const preview = (text: string | null | undefined) => shorten(text, BODY_PREVIEW);

/** `[owner/repo]` or `[owner/repo:branch]`, the platform's title prefix. */
export function repoLabel(payload: TGithubPayload, branch?: string | null): string {
  const name = payload.repository?.full_name ?? "unknown";
  return branch ? `[${name}:${branch}]` : `[${name}]`;
}

/** refs/heads/main → main; refs/tags/v1 → v1. */
export function refName(ref: string | null | undefined): string {
  return (ref ?? "").replace(/^refs\/(heads|tags)\//, "");
}

function author(user: TGithubUser): NonNullable<TEmbed["author"]> {
  return { name: user.login, ...(user.avatar_url && { icon_url: user.avatar_url }), ...(user.html_url && { url: user.html_url }) };
}

/** An embed in the platform's style: the sender as author, a repository-prefixed title. */
export function githubEmbed(
  payload: TGithubPayload,
  fields: { title: string; url?: string | null; description?: string | null; color?: number; by?: TGithubUser | null },
): TEmbed {
  return {
    author: author(fields.by ?? payload.sender),
    title: shorten(fields.title, MESSAGE_LIMITS.embedTitle),
    ...(fields.url && { url: fields.url }),
    ...(fields.description && { description: shorten(fields.description, MESSAGE_LIMITS.embedDescription) }),
    ...(fields.color !== undefined && { color: fields.color }),
  };
}

/** What an event makes: an embed, or null when the platform posts nothing for it (an action it skips). */
export type GithubEventMapper = (payload: TGithubPayload) => TEmbed | null;
