"use client";

import { api, type RouterOutputs } from "~/trpc/react.tsx";

export type SectionDenials = RouterOutputs["guild"]["sectionDenials"];

/** Why the signed-in user may not use each guild-wide section (undefined while loading): the server's decisions, shown beside the controls they disable. */
export function useSectionDenials(guildId: string): SectionDenials | undefined {
  return api.guild.sectionDenials.useQuery({ guildId }).data;
}
