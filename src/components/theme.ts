import { createTheme, darken, lighten, luminance, rem, type CSSVariablesResolver, type MantineColorsTuple } from "@mantine/core";

// A slate-blue "hall" hue: calm enough for dense admin screens, distinct from link blue.
const hall: MantineColorsTuple = ["#eef1fc", "#dbe0f3", "#b3bde7", "#8997db", "#6677d1", "#5063cb", "#4459c9", "#364ab2", "#2e41a0", "#23378e"];

/** Mantine's own height for a select's options. */
const SCROLLING_OPTIONS = { maxHeight: rem(220), overflowY: "auto" } as const;

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
    // Mantine's close buttons are icons without a name.
    Modal: { defaultProps: { centered: true, overlayProps: { blur: 2 }, closeButtonProps: { "aria-label": "Close dialog" } } },
    Drawer: { defaultProps: { closeButtonProps: { "aria-label": "Close dialog" } } },
    Notification: { defaultProps: { closeButtonProps: { "aria-label": "Dismiss" } } },
    // A table wider than the screen scrolls sideways: from the keyboard too.
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
    // A select's options scroll in the listbox itself, the combobox's popup, which the keyboard
    // moves through from the input; a scroll area inside it would be a region no key reaches.
    Select: { defaultProps: { withScrollArea: false }, styles: { options: SCROLLING_OPTIONS } },
    MultiSelect: { defaultProps: { withScrollArea: false }, styles: { options: SCROLLING_OPTIONS } },
    // Its eye-dropper button comes without a name.
    ColorInput: { defaultProps: { eyeDropperButtonProps: { "aria-label": "Pick a colour from the screen" } } },
    // Mantine's menus hold focus first in a placeholder, a child a menu may not have; without it
    // the first item takes focus, as a menu button's menu should.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    Card: { defaultProps: { withBorder: true, radius: "md" } },
    Paper: { defaultProps: { radius: "md" } },
    // Empty states sit under a page's h1; pages that are only an empty state raise it to h1.
    EmptyStateTitle: { defaultProps: { order: 2 } },
  },
});

/** WCAG AA for body text. */
const MIN_CONTRAST = 4.5;

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color`, darkened (or lightened) just enough to be read on each of `backgrounds`. */
function readable(color: string, backgrounds: readonly string[], shift: typeof darken = darken): string {
  let candidate = color;
  for (let amount = 0.04; backgrounds.some((bg) => contrast(candidate, bg) < MIN_CONTRAST) && amount < 1; amount += 0.04) {
    candidate = shift(color, amount);
  }
  return candidate;
}

/**
 * Mantine's palettes put some text below AA contrast in the light scheme (dimmed grey, and
 * coloured text such as orange or yellow on white or on a light badge); here each such colour is
 * darkened just enough, and dimmed text lightened in the dark scheme, so every page passes.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const { white, colors } = resolved;
  const surfaces = [white, colors.gray[0], colors.gray[1]];
  const light: Record<string, string> = { "--mantine-color-dimmed": readable(colors.gray[6], surfaces) };
  for (const [name, shades] of Object.entries(colors)) {
    if (name === "dark") continue;
    light[`--mantine-color-${name}-text`] = readable(shades[6], surfaces);
    light[`--mantine-color-${name}-light-color`] = readable(shades[9], [...surfaces, shades[1]]);
    // Shades named in components (c="orange.8") are text too, and Mantine writes text in shade 6:
    // outline badges and buttons, coloured menu items (color="red"), and an input's error.
    for (const shade of [6, 7, 8, 9] as const) light[`--mantine-color-${name}-${shade}`] = readable(shades[shade], surfaces);
  }
  const dark: Record<string, string> = { "--mantine-color-dimmed": readable(colors.dark[2], [colors.dark[6], colors.dark[7], colors.dark[8]], lighten) };
  // Filled buttons and badges carry white text.
  for (const [scheme, variables] of [
    ["light", light],
    ["dark", dark],
  ] as const) {
    const shade = typeof resolved.primaryShade === "number" ? resolved.primaryShade : resolved.primaryShade[scheme];
    for (const [name, shades] of Object.entries(colors)) {
      if (name === "dark" || name === "gray") continue;
      const filled = readable(shades[shade], [white]);
      variables[`--mantine-color-${name}-filled`] = filled;
      variables[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
    }
  }
  return { variables: {}, light, dark };
};
