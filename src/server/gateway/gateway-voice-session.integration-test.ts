import { GatewayDispatchEvents as E } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { useGatewayServer } from "~/test/gateway-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { isVoiceState, readUntil, updateVoice, voiceGuild, voiceStateOf } from "~/test/voice-kit.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
// Sessions stop being resumable one second after their connection ends. Alone in its file: the
// sweep deletes every instance's sessions that were not seen within that second.
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 }, resumableMs: 1000, housekeepingMs: 100 },
});

describe("a bot's voice state and its gateway session", () => {
  it("disconnects the bot when its session ends (its connection closed and not resumed)", async () => {
    const { voice, guildId, client, watching, createVoice } = await voiceGuild(app, { voice: server, watcher: server });
    const room = await createVoice();
    updateVoice(client, guildId, room);
    await watching.waitFor(isVoiceState(voice.user.id, room), "the join");
    await watching.dispatch(E.VoiceChannelStartTimeUpdate);

    client.terminate();
    const gone = await readUntil(watching, (frame) => frame.t === E.VoiceChannelStartTimeUpdate);
    expect(gone.filter((frame) => frame.t === E.VoiceStateUpdate).map((frame) => voiceStateOf(frame))).toEqual([
      expect.objectContaining({ channel_id: null, user_id: voice.user.id }),
    ]);
    expect(gone.at(-1)!.d).toEqual({ id: room, guild_id: guildId, voice_start_time: null });
    expect(await app.db.voiceState.count({ where: { guildId } })).toBe(0);
  });
});
