import { z } from "zod";

// The parts of the code host's event payloads the embeds read. Each is optional but for
// the sender (every event has one); unknown keys are dropped.

const ZText = z.string().nullish();
const ZUser = z.object({ login: z.string(), avatar_url: ZText, html_url: ZText });
export type TGithubUser = z.output<typeof ZUser>;

const ZRepository = z.object({ name: z.string(), full_name: z.string(), html_url: ZText });
const ZComment = z.object({ body: ZText, html_url: ZText, commit_id: ZText, user: ZUser.nullish() });
const ZIssue = z.object({
  number: z.number().int(),
  title: z.string(),
  html_url: ZText,
  body: ZText,
  merged: z.boolean().nullish(),
  pull_request: z.object({ html_url: ZText }).nullish(),
});
const ZCommit = z.object({
  id: z.string(),
  message: z.string(),
  url: ZText,
  author: z.object({ name: ZText, username: ZText }).nullish(),
});
const ZCheckPullRequest = z.object({ number: z.number().int() });
const ZCheckSuite = z.object({
  head_branch: ZText,
  head_sha: ZText,
  status: ZText,
  conclusion: ZText,
  app: z.object({ name: ZText }).nullish(),
  pull_requests: z.array(ZCheckPullRequest).nullish(),
});

export const ZGithubPayload = z.object({
  action: ZText,
  ref: ZText,
  ref_type: ZText,
  sender: ZUser,
  repository: ZRepository.nullish(),
  forkee: ZRepository.nullish(),
  member: ZUser.nullish(),
  comment: ZComment.nullish(),
  issue: ZIssue.nullish(),
  pull_request: ZIssue.nullish(),
  review: z.object({ body: ZText, html_url: ZText, state: ZText }).nullish(),
  release: z.object({ tag_name: z.string(), name: ZText, html_url: ZText, body: ZText, prerelease: z.boolean().nullish() }).nullish(),
  head_commit: ZCommit.nullish(),
  commits: z.array(ZCommit).nullish(),
  forced: z.boolean().nullish(),
  compare: ZText,
  check_run: z
    .object({
      name: z.string(),
      html_url: ZText,
      status: ZText,
      conclusion: ZText,
      check_suite: ZCheckSuite.nullish(),
      output: z.object({ title: ZText, summary: ZText }).nullish(),
    })
    .nullish(),
  check_suite: ZCheckSuite.nullish(),
  discussion: z.object({ number: z.number().int(), title: z.string(), html_url: ZText, body: ZText }).nullish(),
  answer: ZComment.nullish(),
});
export type TGithubPayload = z.output<typeof ZGithubPayload>;
