// Game: a game of the kassen rules engine under one configuration.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Kassen
{
    /// <summary>A game under one configuration.</summary>
    public sealed class Game : IDisposable
    {
        private readonly GameHandle handle;

        /// <summary>Creates game `id` with `configJson` (a JSON object; null or "" for the defaults).</summary>
        public Game(string id, string configJson = null)
        {
            if (id == null) throw new ArgumentNullException("id");
            byte[] idBytes = Utf8.ToBytes(id), configBytes = Utf8.ToBytes(configJson);
            Kassen.Check(Native.kassen_game_new_n(idBytes, Utf8.Len(idBytes), configBytes, Utf8.Len(configBytes), out handle));
            ReadProperties();
        }

        internal GameHandle Handle { get { return handle; } }

        internal Game(GameHandle handle)
        {
            this.handle = handle;
            ReadProperties();
        }

        /// <summary>The registry id, e.g. "samurai".</summary>
        public string Id { get; private set; }
        /// <summary>The game's display name.</summary>
        public string Name { get; private set; }
        /// <summary>The most legal actions at one decision seen in the game's soak run, with a
        /// margin (a figure, not a proof): a size for the buffers of LegalActions and ApplyStep,
        /// usually far below NumDistinctActions. A buffer that is ever too small throws code 3
        /// and leaves the state unchanged.</summary>
        public int MaxLegalActions { get; private set; }
        /// <summary>The number of seats.</summary>
        public int NumPlayers { get; private set; }
        /// <summary>Every action id is below this; the length of a legal-actions mask.</summary>
        public int NumDistinctActions { get; private set; }
        /// <summary>The number of floats of an observation tensor.</summary>
        public int ObservationLength { get; private set; }

        /// <summary>Bytes of a compact observation (State.CompactObservation).</summary>
        public int CompactLength
        {
            get
            {
                UIntPtr n;
                Kassen.Check(Native.kassen_game_compact_len(handle, out n));
                return checked((int)n.ToUInt64());
            }
        }

        /// <summary>id, name, players, num_distinct_actions, observation_shape, config, provenance, ...</summary>
        public string InfoJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_game_info_json(handle, out buf), ref buf);
        }

        /// <summary>A short primer on the game's rules for a language model's system prompt (markdown).</summary>
        public string RulesPrimer()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_game_rules_primer(handle, out buf), ref buf);
        }

        /// <summary>Draws a view of this game (JSON text, as State.ViewJson writes it) as an SVG document.</summary>
        public string RenderViewSvg(string viewJson)
        {
            if (viewJson == null) throw new ArgumentNullException("viewJson");
            KassenBuf buf;
            byte[] view = Utf8.ToBytes(viewJson);
            return Utf8.TakeBuf(Native.kassen_game_render_view_svg_n(handle, view, Utf8.Len(view), out buf), ref buf);
        }

        /// <summary>The initial state, its RNG seeded by `seed`.</summary>
        public State NewInitialState(ulong seed)
        {
            StateHandle s;
            Kassen.Check(Native.kassen_state_new(handle, seed, out s));
            return new State(s, this);
        }

        /// <summary>A game of this very game and config started at a constructed position (a
        /// position document, see State.FromPosition). Another game's document throws status 6
        /// (KASSEN_STATUS_WRONG_GAME).</summary>
        public State LoadPosition(string positionJson)
        {
            if (positionJson == null) throw new ArgumentNullException("positionJson");
            StateHandle s;
            byte[] bytes = Utf8.ToBytes(positionJson);
            Kassen.Check(Native.kassen_game_load_position_n(handle, bytes, Utf8.Len(bytes), out s));
            return new State(s, this);
        }

        public void Dispose() { handle.Dispose(); }

        private void ReadProperties()
        {
            NumPlayers = ReadNumPlayers();
            NumDistinctActions = ReadNumDistinctActions();
            ObservationLength = ReadObservationLength();
            var info = (Dictionary<string, object>)Json.Parse(InfoJson());
            Id = (string)info["id"];
            Name = (string)info["name"];
            MaxLegalActions = checked((int)(long)info["max_legal_actions"]);
        }

        private int ReadNumPlayers()
        {
            uint n;
            Kassen.Check(Native.kassen_game_num_players(handle, out n));
            return checked((int)n);
        }

        private int ReadNumDistinctActions()
        {
            uint n;
            Kassen.Check(Native.kassen_game_num_distinct_actions(handle, out n));
            return checked((int)n);
        }

        private int ReadObservationLength()
        {
            UIntPtr n;
            Kassen.Check(Native.kassen_game_observation_len(handle, out n));
            return checked((int)n.ToUInt64());
        }
    }
}
