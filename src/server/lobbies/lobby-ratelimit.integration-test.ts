import { describe, expect, it } from "vitest";
import { setRateLimitsLifted } from "~/server/applications/rate-limits.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

// The real limits (scale 1): the development limits of spec 8 are 100 per 2 hours, 20 for linking.
const app = useTestApp({ rateLimitScale: 1 });
const kit = lobbyKit(app);

// Below the per-route limit of 25 a second, so only the development limit can refuse.
const paced = async <T>(call: () => Promise<T>) => {
  await new Promise((resolve) => setTimeout(resolve, 45));
  return call();
};

describe("development rate limits", () => {
  it("counts lobby creations per application, whoever of its users calls, until an operator lifts them", async () => {
    const { server, players, application } = await kit.game(2);
    const statuses: number[] = [];
    // Spread across the game server and two players: one count for the application.
    for (let i = 0; i < 100; i += 1) {
      if (i % 2 === 0) statuses.push((await paced(() => server.post("/lobbies"))).status);
      else statuses.push((await players[i % 4 === 1 ? 0 : 1]!.api.put("/lobbies", { secret: `s${i}` })).status);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // Each route is its own row: 50 creations and 50 joins so far.
    for (let i = 0; i < 50; i += 1) expect((await paced(() => server.post("/lobbies"))).status).toBe(200);
    const limited = await paced(() => server.post("/lobbies"));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ message: "You are being rate limited.", global: false });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(3600);

    // Another application has its own count.
    const other = await kit.game(0);
    expect((await other.server.post("/lobbies")).status).toBe(200);

    await setRateLimitsLifted({ db: app.db, actor: null }, application.id, true);
    expect((await server.post("/lobbies")).status).toBe(200);
    await setRateLimitsLifted({ db: app.db, actor: null }, application.id, false);
    expect((await server.post("/lobbies")).status).toBe(429);
  });

  it("allows 20 channel links per 2 hours", async () => {
    const { server, players } = await kit.game(1);
    const lobby = await kit.lobby(server, { members: [{ id: players[0]!.user.id, flags: 1 }] });
    for (let i = 0; i < 20; i += 1) expect((await players[0]!.api.patch(`/lobbies/${lobby.id}/channel-linking`, {})).status).toBe(200);
    expect((await players[0]!.api.patch(`/lobbies/${lobby.id}/channel-linking`, {})).status).toBe(429);
  });
});
