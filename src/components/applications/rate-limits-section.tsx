import { Badge, Code, Group, Text } from "@mantine/core";
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
            : "Development rate limits apply (spec 8: e.g. 100 lobby creations per 2 hours per application)."}
        </Text>
      </Group>
      {application.rateLimitsLifted ? null : (
        <Text size="sm" c="dimmed">
          An operator lifts them with <Code>npm run cli -- app limits --app {application.id} --lift</Code>
        </Text>
      )}
    </SectionCard>
  );
}
