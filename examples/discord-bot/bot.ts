import { Client, Events, GatewayIntentBits, type Message } from "discord.js";

// An example bot, written as for the platform itself: only the REST base differs, and it
// comes from the environment (or the test that starts it). It answers "!ping" with "pong",
// and "!invite" with a one-minute invite to the channel.

export type BotOptions = {
  token: string;
  /** The API root (`https://…/api` on the platform; a twin's `base_url` in tests). */
  api: string;
};

function createBot(options: BotOptions): Client {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.GuildInvites],
    rest: { api: options.api },
  });
  client.on(Events.MessageCreate, (message) => void answer(message).catch((error: unknown) => console.error("[bot]", error)));
  return client;
}

async function answer(message: Message): Promise<void> {
  if (message.author.bot || !message.inGuild()) return;
  if (message.content === "!ping") {
    await message.reply("pong");
  } else if (message.content === "!invite" && message.channel.isTextBased() && "createInvite" in message.channel) {
    const invite = await message.channel.createInvite({ maxAge: 60, unique: true, reason: "asked for with !invite" });
    await message.reply(`Here is an invite for one minute: ${invite.code}`);
  }
}

/** Logs in and resolves once the bot is ready. */
export async function startBot(options: BotOptions): Promise<Client<true>> {
  const client = createBot(options);
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(options.token);
  return ready;
}
