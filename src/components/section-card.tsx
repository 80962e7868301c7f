import { Card, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A titled block of a settings page. */
export function SectionCard({ title, description, children, id }: { title: string; description?: ReactNode; children: ReactNode; id?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <Card padding="lg" component="section" aria-labelledby={headingId} bg="var(--app-surface-bg)">
      <Stack gap={4} mb="md">
        <Title order={2} fz="lg" id={headingId}>
          {title}
        </Title>
        {description ? (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
      </Stack>
      <Stack gap="md">{children}</Stack>
    </Card>
  );
}

/** The heading of a guild section page. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Stack gap={4}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "flex-end", gap: "var(--mantine-spacing-md)", flexWrap: "wrap" }}>
        <div>
          <Title order={1} fz={26}>
            {title}
          </Title>
          {description ? <Text c="dimmed">{description}</Text> : null}
        </div>
        {actions}
      </div>
    </Stack>
  );
}
