import { GatewayOpcodes } from "discord-api-types/v10";
import { z } from "zod";
import { ZPresenceSchema } from "./commands.ts";
import { updatePresence } from "./commands/presence-update.ts";
import { requestChannelInfo } from "./commands/request-channel-info.ts";
import { ZRequestGuildMembersSchema } from "./commands/member-request.ts";
import { requestGuildMembers } from "./commands/request-guild-members.ts";
import { voiceStateUpdate } from "./commands/voice-state-update.ts";
import { defineCommand, type GatewayCommand } from "./gateway-command.ts";

/** A command whose payload is checked and which has no effect yet. */
const accepted = (shape: z.ZodType): GatewayCommand => defineCommand(shape, () => Promise.resolve());

/**
 * The commands a session sends after IDENTIFY or RESUME; each lives in `commands/`. An opcode
 * missing here closes the connection with 4001.
 */
export const GATEWAY_COMMANDS: Partial<Record<GatewayOpcodes, GatewayCommand>> = {
  [GatewayOpcodes.PresenceUpdate]: defineCommand(ZPresenceSchema, updatePresence),
  [GatewayOpcodes.VoiceStateUpdate]: voiceStateUpdate,
  [GatewayOpcodes.RequestGuildMembers]: defineCommand(ZRequestGuildMembersSchema, requestGuildMembers),
  [GatewayOpcodes.RequestSoundboardSounds]: accepted(z.object({ guild_ids: z.array(z.string()) }).loose()),
  [GatewayOpcodes.RequestChannelInfo]: requestChannelInfo,
};
