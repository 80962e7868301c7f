import { z } from "zod";

// The parts of the code host's event payloads the embeds read. Each is optional but for
// the sender (every event has one); unknown keys are dropped.

const ZTextSchema = z.string().nullish();
const ZUserSchema = z.object({ login: z.string(), avatar_url: ZTextSchema, html_url: ZTextSchema });
export type TGithubUser = z.output<typeof ZUserSchema>;

const ZRepositorySchema = z.object({ name: z.string(), full_name: z.string(), html_url: ZTextSchema });
const ZCommentSchema = z.object({ body: ZTextSchema, html_url: ZTextSchema, commit_id: ZTextSchema, user: ZUserSchema.nullish() });
const ZIssueSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  html_url: ZTextSchema,
  body: ZTextSchema,
  merged: z.boolean().nullish(),
  pull_request: z.object({ html_url: ZTextSchema }).nullish(),
});
const ZCommitSchema = z.object({
  id: z.string(),
  message: z.string(),
  url: ZTextSchema,
  author: z.object({ name: ZTextSchema, username: ZTextSchema }).nullish(),
});
const ZCheckPullRequestSchema = z.object({ number: z.number().int() });
const ZCheckSuiteSchema = z.object({
  head_branch: ZTextSchema,
  head_sha: ZTextSchema,
  status: ZTextSchema,
  conclusion: ZTextSchema,
  app: z.object({ name: ZTextSchema }).nullish(),
  pull_requests: z.array(ZCheckPullRequestSchema).nullish(),
});

export const ZGithubPayloadSchema = z.object({
  action: ZTextSchema,
  ref: ZTextSchema,
  ref_type: ZTextSchema,
  sender: ZUserSchema,
  repository: ZRepositorySchema.nullish(),
  forkee: ZRepositorySchema.nullish(),
  member: ZUserSchema.nullish(),
  comment: ZCommentSchema.nullish(),
  issue: ZIssueSchema.nullish(),
  pull_request: ZIssueSchema.nullish(),
  review: z.object({ body: ZTextSchema, html_url: ZTextSchema, state: ZTextSchema }).nullish(),
  release: z.object({ tag_name: z.string(), name: ZTextSchema, html_url: ZTextSchema, body: ZTextSchema, prerelease: z.boolean().nullish() }).nullish(),
  head_commit: ZCommitSchema.nullish(),
  commits: z.array(ZCommitSchema).nullish(),
  forced: z.boolean().nullish(),
  compare: ZTextSchema,
  check_run: z
    .object({
      name: z.string(),
      html_url: ZTextSchema,
      status: ZTextSchema,
      conclusion: ZTextSchema,
      check_suite: ZCheckSuiteSchema.nullish(),
      output: z.object({ title: ZTextSchema, summary: ZTextSchema }).nullish(),
    })
    .nullish(),
  check_suite: ZCheckSuiteSchema.nullish(),
  discussion: z.object({ number: z.number().int(), title: z.string(), html_url: ZTextSchema, body: ZTextSchema }).nullish(),
  answer: ZCommentSchema.nullish(),
});
export type TGithubPayload = z.output<typeof ZGithubPayloadSchema>;
