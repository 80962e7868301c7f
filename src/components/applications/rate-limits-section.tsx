import { Badge, Group, Text } from "@mantine/core";
import { SectionCard } from "~/components/section-card.tsx";
import type { ApplicationDetail } from "./application-types.ts";

/** Which rate limits apply; an operator lifts the development ones, so this is read-only. */
export function RateLimitsSection({ application }: { application: ApplicationDetail }) {
  return (
    <SectionCard id="rate-limits" title="Rate limits">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {application.rateLimitsLifted ? (
          <Badge variant="light" color="teal" style={{ flexShrink: 0 }}>
            Production
          </Badge>
        ) : (
          <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
            Development
          </Badge>
        )}
        <Text size="sm">
          {application.rateLimitsLifted
            ? "Production rate limits (lifted by an operator)."
            : "Development rate limits apply (for example, 100 lobby creations per 2 hours per application)."}
        </Text>
      </Group>
      {application.rateLimitsLifted ? null : (
        <Text size="sm" c="dimmed">
          When your app goes live, ask this server&apos;s operator to lift them, with your application ID.
        </Text>
      )}
    </SectionCard>
  );
}
