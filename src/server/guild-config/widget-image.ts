import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ReactNode } from "react";
import type { Font } from "satori";
import { WIDGET_STYLE_SIZES, type WidgetStyle } from "./widget.schema.ts";

/** What a widget image shows: the guild's name, its icon (a data URI, or null for initials) and who is online. */
export type WidgetImageInput = { name: string; icon: string | null; presenceCount: number };

// Guildhall's colours (components/theme.ts "hall") and its castle mark (public/favicon.svg).
const HALL = "#4459c9";
const HALL_DARK = "#364ab2";
const HALL_DEEP = "#2e41a0";
const HALL_LIGHT = "#5063cb";
const SOFT_TEXT = "#dbe0f3";
const CASTLE_PATH = "M19.5 23v-2.5a3.5 3.5 0 0 0-7 0V23a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V9h4v3h3V9h6v3h3V9h4v14a1 1 0 0 1-1 1h-4.5a1 1 0 0 1-1-1z";
const BRAND = "Guildhall";

type Style = Record<string, string | number>;
type Node = { type: string; props: Record<string, unknown> };

function el(type: string, style: Style, ...children: (Node | string | null)[]): Node {
  return { type, props: { style, children: children.filter((child) => child !== null) } };
}

/** The castle mark on its tile, `size` pixels square. */
function mark(size: number, tile = "#ffffff", castle = HALL): Node {
  return {
    type: "svg",
    props: {
      width: size,
      height: size,
      viewBox: "0 0 32 32",
      children: [
        { type: "rect", props: { width: 32, height: 32, rx: 8, fill: tile } },
        { type: "path", props: { d: CASTLE_PATH, fill: castle } },
      ],
    },
  };
}

/** The mark and the wordmark side by side. */
function logo(markSize: number, fontSize: number): Node {
  return el(
    "div",
    { display: "flex", alignItems: "center", gap: Math.round(markSize / 4) },
    mark(markSize),
    el("span", { fontSize, fontWeight: 700, color: "#ffffff", letterSpacing: -0.3 }, BRAND),
  );
}

function chevron(size: number): Node {
  return {
    type: "svg",
    props: {
      width: size,
      height: size,
      viewBox: "0 0 24 24",
      children: [
        { type: "path", props: { d: "M9 6l6 6l-6 6", fill: "none", stroke: "#ffffff", strokeWidth: 2.2, strokeLinecap: "round", strokeLinejoin: "round" } },
      ],
    },
  };
}

/** Up to two initials, as the dashboard's avatars show a guild without an icon. */
function guildInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => Array.from(word)[0]!.toUpperCase())
    .join("");
}

function icon(input: WidgetImageInput, size: number): Node {
  if (input.icon) {
    return { type: "img", props: { src: input.icon, width: size, height: size, style: { width: size, height: size, borderRadius: size / 2 } } };
  }
  return el(
    "div",
    {
      display: "flex",
      alignItems: "center",
      justifyContent: "center",
      width: size,
      height: size,
      borderRadius: size / 2,
      backgroundColor: HALL_DEEP,
      color: "#ffffff",
      fontSize: Math.round(size * 0.36),
      fontWeight: 700,
    },
    guildInitials(input.name),
  );
}

function onlineLabel(count: number): string {
  return `${count.toLocaleString("en-US")} Online`;
}

/** The icon, then the name over the online count, clipped to `textWidth`. */
function identity(input: WidgetImageInput, options: { iconSize: number; textWidth: number; nameSize: number; countSize: number }): Node {
  const line: Style = { whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis", width: options.textWidth };
  return el(
    "div",
    { display: "flex", alignItems: "center", gap: 13 },
    icon(input, options.iconSize),
    el(
      "div",
      { display: "flex", flexDirection: "column", gap: 2 },
      el("span", { ...line, fontSize: options.nameSize, fontWeight: 700, color: "#ffffff" }, input.name),
      el("span", { ...line, fontSize: options.countSize, color: SOFT_TEXT }, onlineLabel(input.presenceCount)),
    ),
  );
}

const root = (style: WidgetStyle, extra: Style, ...children: Node[]): Node =>
  el("div", { display: "flex", ...WIDGET_STYLE_SIZES[style], backgroundColor: HALL, fontFamily: "Inter", ...extra }, ...children);

/** A badge: the mark on the left, the online count on the right. */
function shield(input: WidgetImageInput): Node {
  return root(
    "shield",
    { alignItems: "stretch", borderRadius: 3, overflow: "hidden" },
    el("div", { display: "flex", alignItems: "center", justifyContent: "center", width: 28, backgroundColor: "#555a66" }, mark(14)),
    el(
      "div",
      { display: "flex", flexGrow: 1, alignItems: "center", justifyContent: "center", fontSize: 11, fontWeight: 700, color: "#ffffff" },
      `${input.presenceCount.toLocaleString("en-US")} online`,
    ),
  );
}

/** Icon, name and count; "POWERED BY Guildhall" as the footer. */
function banner1(input: WidgetImageInput): Node {
  return root(
    "banner1",
    { flexDirection: "column" },
    el(
      "div",
      { display: "flex", alignItems: "center", justifyContent: "space-between", height: 104, padding: "0 14px 0 20px" },
      identity(input, { iconSize: 50, textWidth: 180, nameSize: 14, countSize: 12 }),
      chevron(18),
    ),
    el(
      "div",
      { display: "flex", flexGrow: 1, alignItems: "center", justifyContent: "center", gap: 8, backgroundColor: HALL_DARK },
      el("span", { fontSize: 11, fontWeight: 700, color: SOFT_TEXT, letterSpacing: 0.6 }, "POWERED BY"),
      logo(20, 15),
    ),
  );
}

/** Icon, name and count, split on the right by a slanted panel with the logo. */
function banner2(input: WidgetImageInput): Node {
  return root(
    "banner2",
    { position: "relative", alignItems: "center" },
    el(
      "div",
      { display: "flex", position: "absolute", right: 0, top: 0 },
      {
        type: "svg",
        props: { width: 140, height: 76, viewBox: "0 0 140 76", children: [{ type: "path", props: { d: "M24 0H140V76H0z", fill: HALL_DARK } }] },
      },
    ),
    el("div", { display: "flex", paddingLeft: 12 }, identity(input, { iconSize: 40, textWidth: 112, nameSize: 13, countSize: 11 })),
    el("div", { display: "flex", position: "absolute", right: 10, top: 0, height: 76, alignItems: "center", gap: 6 }, logo(20, 14), chevron(14)),
  );
}

/** Icon, name and count; the logo and "CHAT NOW" in the footer. */
function banner3(input: WidgetImageInput): Node {
  return root(
    "banner3",
    { flexDirection: "column" },
    el(
      "div",
      { display: "flex", alignItems: "center", height: 90, padding: "0 20px" },
      identity(input, { iconSize: 50, textWidth: 200, nameSize: 14, countSize: 12 }),
    ),
    el(
      "div",
      { display: "flex", flexGrow: 1, alignItems: "center", justifyContent: "space-between", padding: "0 14px 0 20px", backgroundColor: HALL_DARK },
      logo(22, 15),
      el(
        "div",
        { display: "flex", alignItems: "center", gap: 8 },
        el("span", { fontSize: 12, fontWeight: 700, color: "#ffffff", letterSpacing: 0.6 }, "CHAT NOW"),
        chevron(16),
      ),
    ),
  );
}

/** A large logo on top, icon, name and count in the middle, a "JOIN MY SERVER" button below. */
function banner4(input: WidgetImageInput): Node {
  return root(
    "banner4",
    { flexDirection: "column" },
    el(
      "div",
      { display: "flex", flexDirection: "column", alignItems: "center", justifyContent: "center", height: 122, gap: 14 },
      logo(52, 34),
      el("div", { display: "flex", width: 40, height: 2, backgroundColor: HALL_LIGHT }),
    ),
    el(
      "div",
      { display: "flex", flexDirection: "column", flexGrow: 1, padding: "0 20px", backgroundColor: HALL_DARK },
      el("div", { display: "flex", alignItems: "center", height: 84 }, identity(input, { iconSize: 50, textWidth: 200, nameSize: 15, countSize: 12 })),
      el(
        "div",
        {
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          height: 34,
          border: "1.5px solid #ffffff",
          borderRadius: 17,
          fontSize: 12,
          fontWeight: 700,
          color: "#ffffff",
          letterSpacing: 0.8,
        },
        "JOIN MY SERVER",
      ),
    ),
  );
}

const LAYOUTS: Record<WidgetStyle, (input: WidgetImageInput) => Node> = { shield, banner1, banner2, banner3, banner4 };

// Inter in each script it covers; satori picks, per character, the first font that has it.
const FONT_SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "greek-ext", "vietnamese"];
let fonts: Promise<Font[]> | null = null;

function loadFonts(): Promise<Font[]> {
  // From the working directory: Next's bundler rewrites require.resolve, and every entry
  // (next start, the server bundle, the tests) runs from the project root.
  const folder = join(process.cwd(), "node_modules", "@fontsource", "inter", "files");
  fonts ??= Promise.all(
    FONT_SUBSETS.flatMap((subset) =>
      ([400, 700] as const).map(async (weight) => ({
        name: "Inter",
        weight,
        style: "normal" as const,
        data: await readFile(join(folder, `inter-${subset}-${weight}-normal.woff`)),
      })),
    ),
  ).catch((error: unknown) => {
    fonts = null;
    throw error;
  });
  return fonts;
}

/**
 * Renders a widget image as PNG bytes: laid out by satori as SVG, rasterised by resvg. Both
 * load on the first image, not with the server: together they hold about 37 MB, which a
 * server whose guilds show no widget never needs.
 */
export async function renderWidgetImage(style: WidgetStyle, input: WidgetImageInput): Promise<Buffer> {
  const [{ default: satori }, { Resvg }] = await Promise.all([import("satori"), import("@resvg/resvg-js")]);
  const svg = await satori(LAYOUTS[style](input) as unknown as ReactNode, { ...WIDGET_STYLE_SIZES[style], fonts: await loadFonts() });
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
}
