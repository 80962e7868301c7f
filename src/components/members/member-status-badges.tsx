"use client";

import { Badge } from "@mantine/core";
import { isTimedOut, type MemberObject } from "./member-display.ts";

/** "Pending" (screening not completed) and "Timed out" (a timeout still running). */
export function MemberStatusBadges({ member }: { member: MemberObject }) {
  return (
    <>
      {member.pending ? (
        <Badge variant="light" color="gray" tt="none">
          Pending
        </Badge>
      ) : null}
      {isTimedOut(member) ? (
        <Badge variant="light" color="orange" tt="none">
          Timed out
        </Badge>
      ) : null}
      {member.user.bot ? (
        <Badge variant="light" color="indigo" tt="none">
          Bot
        </Badge>
      ) : null}
    </>
  );
}
