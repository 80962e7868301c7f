import { githubEmbed, GITHUB_COLORS, preview, refName, repoLabel, shorten, type GithubEventMapper } from "./github-embed-style.ts";

/** Commits listed in a push embed; more are summed up by the title's count. */
const PUSH_LIST_MAX = 5;
const COMMIT_LINE_MAX = 50;

/** push: "[repo:branch] N new commits", each commit a linked short sha, its first line and author; nothing for a push of no commits. */
const push: GithubEventMapper = (payload) => {
  const branch = refName(payload.ref);
  const commits = payload.commits ?? [];
  if (payload.forced && payload.head_commit) {
    return githubEmbed(payload, {
      title: `${repoLabel(payload)} Branch ${branch} was force-pushed to \`${payload.head_commit.id.slice(0, 7)}\``,
      url: payload.compare,
      color: GITHUB_COLORS.failure,
    });
  }
  if (commits.length === 0) return null;
  const lines = commits.slice(0, PUSH_LIST_MAX).map((commit) => {
    const sha = `\`${commit.id.slice(0, 7)}\``;
    const message = shorten(commit.message.split("\n")[0], COMMIT_LINE_MAX) ?? "";
    const who = commit.author?.username ?? commit.author?.name;
    return `${commit.url ? `[${sha}](${commit.url})` : sha} ${message}${who ? ` - ${who}` : ""}`;
  });
  const count = commits.length;
  return githubEmbed(payload, {
    title: `${repoLabel(payload, branch)} ${count} new commit${count === 1 ? "" : "s"}`,
    url: count === 1 ? commits[0]!.url : payload.compare,
    description: lines.join("\n"),
    color: GITHUB_COLORS.commits,
  });
};

/** create and delete: a branch or a tag. */
const create: GithubEventMapper = (payload) =>
  githubEmbed(payload, {
    title: `${repoLabel(payload)} New ${payload.ref_type === "tag" ? "tag" : "branch"} created: ${payload.ref ?? ""}`,
    url: payload.repository?.html_url,
  });

const remove: GithubEventMapper = (payload) =>
  githubEmbed(payload, { title: `${repoLabel(payload)} ${payload.ref_type === "tag" ? "Tag" : "Branch"} deleted: ${payload.ref ?? ""}` });

const fork: GithubEventMapper = (payload) =>
  payload.forkee ? githubEmbed(payload, { title: `${repoLabel(payload)} Fork created: ${payload.forkee.full_name}`, url: payload.forkee.html_url }) : null;

const commitComment: GithubEventMapper = (payload) => {
  const { comment } = payload;
  if (!comment) return null;
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} New comment on commit \`${(comment.commit_id ?? "").slice(0, 7)}\``,
    url: comment.html_url,
    description: preview(comment.body),
    color: GITHUB_COLORS.comment,
    by: comment.user,
  });
};

/** release: only when published, as the platform posts it. */
const release: GithubEventMapper = (payload) => {
  if (payload.action !== "published" || !payload.release) return null;
  const { tag_name, name, html_url } = payload.release;
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} New release published: ${name || tag_name}`,
    url: html_url,
    description: preview(payload.release.body),
  });
};

/** watch: a star (the code host's only watch action). */
const watch: GithubEventMapper = (payload) => githubEmbed(payload, { title: `${repoLabel(payload)} New star added`, url: payload.repository?.html_url });

const publicized: GithubEventMapper = (payload) =>
  githubEmbed(payload, { title: `${repoLabel(payload)} Now open sourced!`, url: payload.repository?.html_url });

const member: GithubEventMapper = (payload) =>
  payload.action === "added" && payload.member
    ? githubEmbed(payload, { title: `${repoLabel(payload)} New collaborator added: ${payload.member.login}`, url: payload.member.html_url })
    : null;

export const repositoryEvents: Record<string, GithubEventMapper> = {
  push,
  create,
  delete: remove,
  fork,
  commit_comment: commitComment,
  release,
  watch,
  public: publicized,
  member,
};
