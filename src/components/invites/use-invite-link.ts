"use client";

import { useSyncExternalStore } from "react";

// The origin doesn't change while the page is open: there is nothing to subscribe to.
const noSubscription = () => () => undefined;

/**
 * The address people open to join an invite, as a function of its code. The server renders
 * the page without a window, so there the link is relative until the page hydrates.
 */
export function useInviteLink(): (code: string) => string {
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
  return (code) => `${origin}/invite/${code}`;
}
