import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import {
  deleteDenial,
  editDenial,
  messageThreadDenial,
  NO_STANDING,
  pinDenial,
  reactDenial,
  replyDenial,
  sendDenial,
  type MessagePlace,
} from "./message-rules.ts";

const READER = P.ViewChannel | P.ReadMessageHistory;
const place = (permissions: bigint, more: Partial<MessagePlace> = {}): MessagePlace => ({
  permissions,
  readable: true,
  standing: NO_STANDING,
  thread: null,
  ...more,
});
const thread = (row: { threadArchived: boolean; threadLocked: boolean }) => ({ row });

describe("the message rules", () => {
  it("name the permission a person lacks, and that a timeout is why", () => {
    expect(sendDenial(place(READER))).toEqual({ error: "MISSING_PERMISSIONS", reason: "Needs Send messages in this channel." });
    expect(sendDenial(place(READER, { standing: { isTimedOut: true, isPending: false } }))?.reason).toBe(
      "Needs Send messages in this channel (you are timed out).",
    );
    expect(sendDenial(place(READER | P.SendMessages))).toBeNull();
  });

  it("send in threads with Send messages in threads, never into a locked archived thread without Manage threads", () => {
    const locked = thread({ threadArchived: true, threadLocked: true });
    expect(sendDenial(place(READER | P.SendMessages, { thread: thread({ threadArchived: false, threadLocked: false }) }))?.reason).toBe(
      "Needs Send messages in threads in this thread.",
    );
    expect(sendDenial(place(READER | P.SendMessagesInThreads, { thread: locked }))).toMatchObject({ error: "THREAD_ARCHIVED" });
    expect(sendDenial(place(READER | P.SendMessagesInThreads | P.ManageThreads, { thread: locked }))).toBeNull();
  });

  it("reply where the history is readable, edit only one's own, delete others' with Manage messages", () => {
    expect(replyDenial(place(P.ViewChannel | P.SendMessages, { readable: false }))).toMatchObject({ error: "CANNOT_REPLY_WITHOUT_HISTORY" });
    expect(editDenial("1", "2")).toMatchObject({ error: "NOT_AUTHOR" });
    expect(editDenial("1", "1")).toBeNull();
    expect(deleteDenial(place(READER), true)).toBeNull();
    expect(deleteDenial(place(READER), false)?.reason).toBe("Needs Manage messages in this channel.");
  });

  it("pin with Pin messages, react to a new emoji with Add reactions and join one without, start threads with Create public threads", () => {
    expect(pinDenial(place(READER))?.reason).toBe("Needs Pin messages in this channel.");
    expect(pinDenial(place(READER | P.PinMessages, { readable: false }))).toMatchObject({ error: "MISSING_ACCESS" });
    expect(reactDenial(place(READER), false)).toBeNull();
    expect(reactDenial(place(READER), true)?.reason).toBe("Needs Add reactions in this channel.");
    expect(reactDenial(place(READER | P.AddReactions, { thread: thread({ threadArchived: true, threadLocked: false }) }), false)).toMatchObject({
      error: "THREAD_ARCHIVED",
    });
    expect(messageThreadDenial(place(READER))?.reason).toBe("Needs Create public threads in this channel.");
    expect(messageThreadDenial(place(READER | P.CreatePublicThreads))).toBeNull();
  });
});
