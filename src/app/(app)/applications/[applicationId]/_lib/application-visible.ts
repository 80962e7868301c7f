import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { api } from "~/trpc/server.ts";

/** Someone else's application, an unknown one and a malformed id all read as "not found". */
export async function assertApplicationVisible(applicationId: string): Promise<void> {
  try {
    await api.application.get({ applicationId });
  } catch (error) {
    if (error instanceof TRPCError && ["NOT_FOUND", "BAD_REQUEST"].includes(error.code)) notFound();
    throw error;
  }
}
