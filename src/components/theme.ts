import { createTheme, type MantineColorsTuple } from "@mantine/core";

// A slate-blue "hall" hue: calm enough for dense admin screens, distinct from link blue.
const hall: MantineColorsTuple = ["#eef1fc", "#dbe0f3", "#b3bde7", "#8997db", "#6677d1", "#5063cb", "#4459c9", "#364ab2", "#2e41a0", "#23378e"];

export const theme = createTheme({
  primaryColor: "hall",
  colors: { hall },
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: "md",
  fontFamily: "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  headings: { fontWeight: "650" },
  cursorType: "pointer",
  components: {
    Tooltip: { defaultProps: { withArrow: true, openDelay: 150 } },
    Modal: { defaultProps: { centered: true, overlayProps: { blur: 2 } } },
    Card: { defaultProps: { withBorder: true, radius: "md" } },
    Paper: { defaultProps: { radius: "md" } },
    // Empty states sit under a page's h1; pages that are only an empty state raise it to h1.
    EmptyStateTitle: { defaultProps: { order: 2 } },
  },
});
