import { githubEmbed, GITHUB_COLORS, preview, repoLabel, type GithubEventMapper } from "./github-embed-style.ts";

/** Actions on issues and pull requests the platform posts; labels, assignments and edits are skipped. */
const POSTED_ACTIONS = ["opened", "closed", "reopened"];

const issues: GithubEventMapper = (payload) => {
  const { issue, action } = payload;
  if (!issue || !action || !POSTED_ACTIONS.includes(action)) return null;
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} Issue ${action}: #${issue.number} ${issue.title}`,
    url: issue.html_url,
    description: action === "opened" ? preview(issue.body) : undefined,
    color: action === "closed" ? GITHUB_COLORS.closed : GITHUB_COLORS.issueOpened,
  });
};

const pullRequest: GithubEventMapper = (payload) => {
  const { pull_request: pr, action } = payload;
  if (!pr || !action || !POSTED_ACTIONS.includes(action)) return null;
  const verb = action === "closed" && pr.merged ? "merged" : action;
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} Pull request ${verb}: #${pr.number} ${pr.title}`,
    url: pr.html_url,
    description: action === "opened" ? preview(pr.body) : undefined,
    color: action === "closed" ? GITHUB_COLORS.closed : GITHUB_COLORS.pullRequestOpened,
  });
};

/** issue_comment: on an issue or on a pull request (the code host sends both as issues). */
const issueComment: GithubEventMapper = (payload) => {
  const { issue, comment } = payload;
  if (payload.action !== "created" || !issue || !comment) return null;
  const kind = issue.pull_request ? "pull request" : "issue";
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} New comment on ${kind} #${issue.number}: ${issue.title}`,
    url: comment.html_url,
    description: preview(comment.body),
    color: GITHUB_COLORS.comment,
    by: comment.user,
  });
};

const REVIEW_STATES: Record<string, string> = { approved: "approved", changes_requested: "changes requested", commented: "commented" };

const pullRequestReview: GithubEventMapper = (payload) => {
  const { pull_request: pr, review } = payload;
  if (payload.action !== "submitted" || !pr || !review) return null;
  const state = REVIEW_STATES[review.state?.toLowerCase() ?? ""] ?? "submitted";
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} Pull request review ${state}: #${pr.number} ${pr.title}`,
    url: review.html_url,
    description: preview(review.body),
    color: state === "approved" ? GITHUB_COLORS.success : state === "changes requested" ? GITHUB_COLORS.failure : GITHUB_COLORS.comment,
  });
};

const pullRequestReviewComment: GithubEventMapper = (payload) => {
  const { pull_request: pr, comment } = payload;
  if (payload.action !== "created" || !pr || !comment) return null;
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} New review comment on pull request #${pr.number}: ${pr.title}`,
    url: comment.html_url,
    description: preview(comment.body),
    color: GITHUB_COLORS.comment,
    by: comment.user,
  });
};

const discussion: GithubEventMapper = (payload) => {
  const { discussion: topic, action } = payload;
  if (!topic) return null;
  if (action === "created") {
    return githubEmbed(payload, {
      title: `${repoLabel(payload)} New discussion #${topic.number}: ${topic.title}`,
      url: topic.html_url,
      description: preview(topic.body),
      color: GITHUB_COLORS.issueOpened,
    });
  }
  if (action === "answered" && payload.answer) {
    return githubEmbed(payload, {
      title: `${repoLabel(payload)} Discussion answered: #${topic.number} ${topic.title}`,
      url: payload.answer.html_url ?? topic.html_url,
      description: preview(payload.answer.body),
      color: GITHUB_COLORS.success,
    });
  }
  return null;
};

const discussionComment: GithubEventMapper = (payload) => {
  const { discussion: topic, comment } = payload;
  if (payload.action !== "created" || !topic || !comment) return null;
  return githubEmbed(payload, {
    title: `${repoLabel(payload)} New comment on discussion #${topic.number}: ${topic.title}`,
    url: comment.html_url,
    description: preview(comment.body),
    color: GITHUB_COLORS.comment,
    by: comment.user,
  });
};

export const conversationEvents: Record<string, GithubEventMapper> = {
  issues,
  pull_request: pullRequest,
  issue_comment: issueComment,
  pull_request_review: pullRequestReview,
  pull_request_review_comment: pullRequestReviewComment,
  discussion,
  discussion_comment: discussionComment,
};
