import { monitorEventLoopDelay } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { Prisma } from "~/generated/prisma/client.ts";
import { TARGET_USERS_FILE_MAX_BYTES } from "./invite.schema.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { JOB_STATUS, runTargetUsersJob, storeTargetUsersJob } from "./target-users-job.ts";

const app = useTestApp();

async function inviteSetup() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const api = app.as(bot(owner.token));
  const channels = await api.get<{ id: string; type: number }[]>(`/guilds/${guild.id}/channels`);
  const text = channels.body.find((channel) => channel.type === ChannelType.GuildText)!;
  const code = (await api.post(`/channels/${text.id}/invites`, { unique: true })).body.code as string;
  return { owner, guild, api, code };
}

/** PUT target-users as a client library sends it: multipart/form-data with the file. */
async function upload(token: string, code: string, csv: string) {
  const form = new FormData();
  form.append("target_users_file", new Blob([csv], { type: "text/csv" }), "users.csv");
  const response = await app.dispatch(
    new Request(`http://guildhall.test/api/v10/invites/${code}/target-users`, { method: "PUT", headers: { authorization: bot(token) }, body: form }),
  );
  return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as Record<string, unknown>) };
}

/** The CPU time `fn` takes in this process, in microseconds: what other processes on the machine do is not counted. */
async function cpuOf(fn: () => unknown): Promise<number> {
  const started = process.cpuUsage();
  await fn();
  const { user, system } = process.cpuUsage(started);
  return user + system;
}

/** `count` users made with one statement (what a large file needs). */
async function manyUsers(count: number): Promise<string[]> {
  // Consecutive ids from one fresh snowflake: faster than the generator allows per millisecond.
  const base = BigInt(newId());
  const ids = Array.from({ length: count }, (_, i) => (base + BigInt(i)).toString());
  // Plain multi-row inserts: createMany spends most of a second per thousand rows in the client.
  const createdAt = new Date();
  for (let i = 0; i < ids.length; i += 2_000) {
    const rows = ids.slice(i, i + 2_000).map((id) => Prisma.sql`(${id}, ${`t${id}`}, ${createdAt})`);
    await app.db.$executeRaw`INSERT INTO "User" ("id", "username", "createdAt") VALUES ${Prisma.join(rows)}`;
  }
  return ids;
}

describe("target users", () => {
  it("processes an uploaded file in the background, then admits only those users", async () => {
    const { owner, api, code } = await inviteSetup();
    const allowed = await makeUser(app.db);
    const other = await makeUser(app.db);
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body).toMatchObject({ status: JOB_STATUS.UNSPECIFIED, total_users: 0 });

    expect((await upload(owner.token, code, `user_id\n${allowed.user.id}\n`)).status).toBe(204);
    await until(async () => (await api.get(`/invites/${code}/target-users/job-status`)).body.status === JOB_STATUS.COMPLETED);
    const status = (await api.get(`/invites/${code}/target-users/job-status`)).body;
    expect(status).toMatchObject({ total_users: 1, processed_users: 1, error_message: "" });
    expect(status.completed_at).not.toBeNull();

    const csv = await api.get(`/invites/${code}/target-users`);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.body).toBe(`user_id\n${allowed.user.id}\n`);

    expect((await app.as(bearer(other.token)).post(`/invites/${code}`)).status).toBe(403);
    expect((await app.as(bearer(allowed.token)).post(`/invites/${code}`)).status).toBe(200);
  });

  it("refuses a file with lines that are no user ids at once, naming each line and its problem", async () => {
    const { owner, api, code } = await inviteSetup();
    const known = await makeUser(app.db);
    const answer = await upload(owner.token, code, `user_id\n${known.user.id}\nnot-an-id\n1,2\n${known.user.id}\n`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 50035 });
    const problems = answer.body!.target_users_file as string[];
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^Line 3: /);
    expect(problems[1]).toMatch(/^Line 4: /);
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body.status).toBe(JOB_STATUS.UNSPECIFIED);
  });

  it("fails the job for ids of no user, naming each line, and keeps the list", async () => {
    const { owner, api, code } = await inviteSetup();
    const [kept, known] = [await makeUser(app.db), await makeUser(app.db)];
    await api.put(`/invites/${code}/target-users/${kept.user.id}`);
    const unknown = [newId(), newId()];
    expect((await upload(owner.token, code, `user_id\n${known.user.id}\n${unknown[0]}\n${known.user.id}\n${unknown[1]}\n`)).status).toBe(204);
    await until(async () => (await api.get(`/invites/${code}/target-users/job-status`)).body.status === JOB_STATUS.FAILED);
    const status = (await api.get(`/invites/${code}/target-users/job-status`)).body;
    expect(status).toMatchObject({ total_users: 4, processed_users: 0 });
    expect(status.error_message).toBe(`Line 3: no user has the id ${unknown[0]}.\nLine 5: no user has the id ${unknown[1]}.`);
    expect(status.completed_at).not.toBeNull();
    expect((await api.get(`/invites/${code}/target-users`)).body).toBe(`user_id\n${kept.user.id}\n`);
    expect(await app.db.targetUsersJobChunk.count({ where: { code } })).toBe(0);
  });

  it("refuses a file past the size cap with 413 and starts no job", async () => {
    const { owner, api, code } = await inviteSetup();
    const line = `${newId()}\n`;
    const answer = await upload(owner.token, code, line.repeat(Math.floor(TARGET_USERS_FILE_MAX_BYTES / line.length) + 1));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 40005 });
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body.status).toBe(JOB_STATUS.UNSPECIFIED);
  });

  it("treats the dashboard's upload the same: bad lines refused at once, ids of no user failing the job", async () => {
    const { owner, api, code } = await inviteSetup();
    const dashboard = createCaller({ db: app.db, userId: owner.user.id });
    await expect(dashboard.invite.uploadTargetUsers({ code, csv: "user_id\nnot-an-id\n" })).rejects.toMatchObject({
      cause: { extra: { target_users_file: [expect.stringMatching(/^Line 2: /)] } },
    });
    const unknown = newId();
    await dashboard.invite.uploadTargetUsers({ code, csv: `user_id\n${unknown}\n` });
    await until(async () => (await dashboard.invite.targetUsersStatus({ code })).status === JOB_STATUS.FAILED);
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body.error_message).toBe(`Line 2: no user has the id ${unknown}.`);
  });

  it("answers other requests promptly while a file of a million lines is checked and processed", async () => {
    const { owner, api, code } = await inviteSetup();
    const csv = "1\n".repeat(1_000_000);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let finished = false;
    const uploaded = upload(owner.token, code, csv).finally(() => (finished = true));
    // Unrelated requests, one after another, for as long as the upload is being answered;
    // each arrives in a later turn of the event loop, as one from the network does.
    const latencies: number[] = [];
    while (!finished) {
      await nextTurn();
      const started = performance.now();
      expect((await api.get("/users/@me")).status).toBe(200);
      latencies.push(performance.now() - started);
    }
    expect((await uploaded).status).toBe(204);
    await until(async () => (await api.get(`/invites/${code}/target-users/job-status`)).body.status === JOB_STATUS.FAILED, 100_000);
    delay.disable();
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body.error_message).toMatch(/^Line 1: no user has the id 1\.\n/);
    // Bounds wide enough for a loaded CI machine (where the process may simply not be
    // scheduled for a while): a synchronous parse or a lookup per line held the loop for 10 s.
    expect(Math.max(...latencies)).toBeLessThan(3000);
    expect(delay.max / 1e6).toBeLessThan(2000);
  }, 120_000);

  it("answers a file of a million lines once it is stored and checked, before its job reads the ids, which then replace the list", async () => {
    const { owner, api, code } = await inviteSetup();
    const before = await makeUser(app.db);
    await api.put(`/invites/${code}/target-users/${before.user.id}`);
    // A thousand users with short ids, each on a thousand lines: a million lines in 8 MB.
    const ids = Array.from({ length: 1000 }, (_, i) => String(7_000_000 + i));
    await app.db.user.createMany({ data: ids.map((id) => ({ id, username: `t${id}` })) });
    const csv = `user_id\n${Array.from({ length: 1000 }, () => ids.join("\n")).join("\n")}\n`;

    // What one plain pass over the lines costs this process: the upload's answer may cost a few
    // (the multipart body, the line check, storing), not the 40 that parsing it as CSV took.
    const plainPass = await cpuOf(() => csv.split("\n").filter((line) => /^\d{1,20}$/.test(line.trim())).length);
    const answering = await cpuOf(async () => expect((await upload(owner.token, code, csv)).status).toBe(204));
    // Right after the answer the job has not got through the ids yet; then it replaces the list.
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body).toMatchObject({
      status: JOB_STATUS.PROCESSING,
      total_users: 1_000_000,
      processed_users: 0,
    });
    expect(answering).toBeLessThan(5 * plainPass);
    await until(async () => (await api.get(`/invites/${code}/target-users/job-status`)).body.status !== JOB_STATUS.PROCESSING, 200_000);
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body).toMatchObject({ status: JOB_STATUS.COMPLETED, processed_users: 1_000_000 });
    expect((await api.get<string>(`/invites/${code}/target-users`)).body).toBe(`user_id\n${[...ids].sort().join("\n")}\n`);
  }, 240_000);

  it("needs the file and the inviter or MANAGE_GUILD", async () => {
    const { owner, code } = await inviteSetup();
    const stranger = await makeBot(app.db);
    expect((await upload(stranger.token, code, "user_id\n")).status).toBe(403);
    const noFile = await app.as(bot(owner.token)).put(`/invites/${code}/target-users`, {});
    expect(noFile.status).toBe(400);
    // Neither refusal started a job.
    expect((await app.as(bot(owner.token)).get(`/invites/${code}/target-users/job-status`)).body.status).toBe(JOB_STATUS.UNSPECIFIED);
  });

  it("edits one user or many at a time", async () => {
    const { api, code } = await inviteSetup();
    const [a, b, c] = [await makeUser(app.db), await makeUser(app.db), await makeUser(app.db)];
    expect((await api.put(`/invites/${code}/target-users/${a.user.id}`)).status).toBe(204);
    expect((await api.post(`/invites/${code}/target-users/bulk-add`, { user_ids: [b.user.id, c.user.id, a.user.id] })).status).toBe(204);
    expect((await api.post(`/invites/${code}/target-users/bulk-delete`, { user_ids: [b.user.id] })).status).toBe(204);
    expect((await api.delete(`/invites/${code}/target-users/${c.user.id}`)).status).toBe(204);
    expect((await api.get(`/invites/${code}/target-users`)).body).toBe(`user_id\n${a.user.id}\n`);
    expect((await api.put(`/invites/${code}/target-users/${newId()}`)).body.code).toBe(10013);
  });

  it("processes a file of 100,000 ids", async () => {
    const { owner, api, code } = await inviteSetup();
    const ids = await manyUsers(100_000);
    expect((await upload(owner.token, code, `user_id\n${ids.join("\n")}\n`)).status).toBe(204);
    await until(async () => (await api.get(`/invites/${code}/target-users/job-status`)).body.status === JOB_STATUS.COMPLETED, 100_000);
    expect(await app.db.inviteTargetUser.count({ where: { code } })).toBe(100_000);
    expect(await app.db.targetUsersJobChunk.count({ where: { code } })).toBe(0);
  }, 120_000);

  it("takes up a job whose worker died, and fails one that keeps dying", async () => {
    const { api, code } = await inviteSetup();
    const user = await makeUser(app.db);
    await storeTargetUsersJob(app.db, { code, file: Buffer.from(`${user.user.id}\n`), totalUsers: 1 });
    // A worker claimed it and died: its lease lapsed.
    await app.db.targetUsersJob.update({ where: { code }, data: { attempts: 1, leaseUntil: new Date(Date.now() - 1000) } });
    await runTargetUsersJob(app.db, code);
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body).toMatchObject({ status: JOB_STATUS.COMPLETED, processed_users: 1 });

    await storeTargetUsersJob(app.db, { code, file: Buffer.from(`${user.user.id}\n`), totalUsers: 1 });
    await app.db.targetUsersJob.update({ where: { code }, data: { attempts: 3, leaseUntil: new Date(Date.now() - 1000) } });
    await runTargetUsersJob(app.db, code);
    const failed = (await api.get(`/invites/${code}/target-users/job-status`)).body;
    expect(failed.status).toBe(JOB_STATUS.FAILED);
    expect(failed.error_message).toContain("interrupted");

    // A live lease is left alone.
    await storeTargetUsersJob(app.db, { code, file: Buffer.from(`${user.user.id}\n`), totalUsers: 1 });
    await app.db.targetUsersJob.update({ where: { code }, data: { attempts: 1, leaseUntil: new Date(Date.now() + 60_000) } });
    await runTargetUsersJob(app.db, code);
    expect((await api.get(`/invites/${code}/target-users/job-status`)).body.status).toBe(JOB_STATUS.PROCESSING);
  });
});
