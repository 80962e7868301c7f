import { Anchor, Group, Text, ThemeIcon } from "@mantine/core";
import Link from "next/link";
import { IconBuildingCastle } from "~/components/icons.tsx";

/** The product mark; links home. */
export function Brand() {
  return (
    <Anchor component={Link} href="/" underline="never" c="inherit">
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={30} radius="md" variant="filled">
          <IconBuildingCastle size={18} />
        </ThemeIcon>
        <Text fw={700} fz="lg" lts={-0.2} component="span">
          Guildhall
        </Text>
      </Group>
    </Anchor>
  );
}
