"use client";

import { notifyFailure } from "~/components/forms/server-errors.ts";
import { api } from "~/trpc/react.tsx";

/** Reacting and pinning from the channel's view, through the services REST uses; the page refetches what changed. */
export function useMessageClient(channelId: string) {
  const utils = api.useUtils();
  const refresh = () => utils.message.list.invalidate({ channelId });
  const react = api.message.react.useMutation({ onSuccess: refresh, onError: (error) => notifyFailure("Could not react", error) });
  const unreact = api.message.unreact.useMutation({ onSuccess: refresh, onError: (error) => notifyFailure("Could not take the reaction back", error) });
  const pin = api.message.pin.useMutation({ onSuccess: refresh, onError: (error) => notifyFailure("Could not pin the message", error) });
  const unpin = api.message.unpin.useMutation({ onSuccess: refresh, onError: (error) => notifyFailure("Could not unpin the message", error) });
  const reacting = react.isPending ? react.variables : unreact.isPending ? unreact.variables : null;
  return {
    /** The message and emoji whose reaction is being changed, while it is. */
    reacting: reacting && { messageId: reacting.messageId, emoji: reacting.emoji },
    toggleReaction: (messageId: string, emoji: string, isMine: boolean) => (isMine ? unreact : react).mutate({ channelId, messageId, emoji }),
    setPinned: (messageId: string, pinned: boolean) => (pinned ? pin : unpin).mutate({ channelId, messageId }),
  };
}
