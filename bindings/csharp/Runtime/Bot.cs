// Bot: the built-in bots of the kassen library (kassen_bot).
using System;

namespace Kassen
{
    /// <summary>A built-in bot: it picks the action of the player to act in a state, using only
    /// what that player may know. Each bot carries its own random number generator (its
    /// choices are a function of its seed and the states it is shown), so it needs exclusive
    /// access: one thread at a time. A bot plays any game. Create one with a factory
    /// (Random, MonteCarlo) and Dispose it.</summary>
    public sealed class Bot : IDisposable
    {
        private readonly BotHandle handle;

        // Every factory wraps the handle a kassen_bot_new_* function returns: a new kind of
        // built-in bot is one more static method here.
        private Bot(BotHandle handle) { this.handle = handle; }

        /// <summary>A uniformly random legal action (chance outcomes by their probability),
        /// deterministic given `seed`.</summary>
        public static Bot Random(ulong seed)
        {
            BotHandle h;
            Kassen.Check(Native.kassen_bot_new_random(seed, out h));
            return new Bot(h);
        }

        /// <summary>Flat Monte Carlo: for each candidate action, `playouts` random games from
        /// determinizations for the acting seat; the best mean return wins. Deterministic given
        /// `seed`. `playouts` 0 throws code 5 (KASSEN_STATUS_INVALID_ARGUMENT).</summary>
        public static Bot MonteCarlo(ulong seed, uint playouts)
        {
            BotHandle h;
            Kassen.Check(Native.kassen_bot_new_monte_carlo(seed, playouts, out h));
            return new Bot(h);
        }

        /// <summary>Any built-in bot by name (see kassen_bot_new): "random", "monte_carlo",
        /// "monte_carlo:P", "ismcts:easy", "ismcts:normal", "ismcts:hard", "ismcts:N", a search
        /// bot optionally with "@&lt;T&gt;ms". An unknown spec throws code 101
        /// (KASSEN_STATUS_INVALID_CONFIG). A search bot's Choose blocks for its budget: a user
        /// interface runs a <see cref="Search"/> instead.</summary>
        public static Bot FromSpec(string spec, ulong seed)
        {
            if (spec == null) throw new ArgumentNullException("spec");
            byte[] bytes = Utf8.ToBytes(spec);
            BotHandle h;
            Kassen.Check(Native.kassen_bot_new_n(bytes, Utf8.Len(bytes), seed, out h));
            return new Bot(h);
        }

        /// <summary>The built-in bots as JSON: [{"spec", "name", "description"}, ...].</summary>
        public static string SpecsJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_bots_json(out buf), ref buf);
        }

        /// <summary>The statistics of the bot's last decision as JSON ({"seat", "action",
        /// "iterations", "elapsed_ms", "candidates": [{"action", "visits", "value", "line",
        /// "reason"}]}, the bot's own decisions without reasons), or
        /// "null" for a bot that does not search a tree.</summary>
        public string LastDecisionJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_bot_last_decision_json(handle, out buf), ref buf);
        }

        /// <summary>The bot's action for the player to act in `state` (a chance outcome at a
        /// chance node of an explicit-chance game); the state is not changed. Throws code 203
        /// (KASSEN_STATUS_GAME_OVER) on a finished game.</summary>
        public uint Choose(State state)
        {
            if (state == null) throw new ArgumentNullException("state");
            uint action;
            Kassen.Check(Native.kassen_bot_choose(handle, state.Handle, out action));
            return action;
        }

        public void Dispose() { handle.Dispose(); }
    }
}
