// State: a game state of the kassen rules engine (the per-step calls allocate nothing).
using System;
using System.Runtime.InteropServices;

namespace Kassen
{
    /// <summary>A chance outcome: its action id and probability.</summary>
    public struct ChanceOutcome
    {
        public uint Action;
        public double Probability;
    }

    /// <summary>A game state.</summary>
    public sealed class State : IDisposable, IEquatable<State>
    {
        private readonly StateHandle handle;
        private readonly Game game;

        internal State(StateHandle handle, Game game)
        {
            this.handle = handle;
            this.game = game;
        }

        internal StateHandle Handle { get { return handle; } }

        /// <summary>The game this state belongs to.</summary>
        public Game Game { get { return game; } }

        /// <summary>Loads a state saved by ToJson (its action log is replayed and checked).</summary>
        public static State FromJson(string json)
        {
            if (json == null) throw new ArgumentNullException("json");
            StateHandle s;
            byte[] bytes = Utf8.ToBytes(json);
            Kassen.Check(Native.kassen_state_from_json_n(bytes, Utf8.Len(bytes), out s));
            return WithItsGame(s);
        }

        /// <summary>A game started at a constructed position: a position document (format
        /// "kassen-position-1", see docs/positions.md) of any registered game, checked against its
        /// schema and rules (status 306, KASSEN_STATUS_INVALID_POSITION, names the field and the
        /// rule). Its History holds only the actions after the position; ToJson saves the
        /// position with them.</summary>
        public static State FromPosition(string positionJson)
        {
            if (positionJson == null) throw new ArgumentNullException("positionJson");
            StateHandle s;
            byte[] bytes = Utf8.ToBytes(positionJson);
            Kassen.Check(Native.kassen_state_from_position_n(bytes, Utf8.Len(bytes), out s));
            return WithItsGame(s);
        }

        /// <summary>A state the library loaded, with a handle on its game (the state is released
        /// when that fails).</summary>
        private static State WithItsGame(StateHandle s)
        {
            GameHandle g;
            int status = Native.kassen_state_game(s, out g);
            if (status != Kassen.StatusOk) s.Dispose();
            Kassen.Check(status);
            return new State(s, new Game(g));
        }

        /// <summary>An independent copy (position, RNG and action log).</summary>
        public State Clone()
        {
            StateHandle s;
            Kassen.Check(Native.kassen_state_clone(handle, out s));
            return new State(s, game);
        }

        /// <summary>A seat, Kassen.Chance (-1, only with "explicit_chance") or Kassen.Terminal (-4).</summary>
        public int CurrentPlayer
        {
            get
            {
                int p;
                Kassen.Check(Native.kassen_state_current_player(handle, out p));
                return p;
            }
        }

        public bool IsTerminal
        {
            get
            {
                byte over;
                Kassen.Check(Native.kassen_state_is_terminal(handle, out over));
                return over != 0;
            }
        }

        /// <summary>Fills `buffer` with the legal action ids (ascending) and returns their number.
        /// A buffer of Game.NumDistinctActions always fits. Allocates nothing.</summary>
        public int LegalActions(uint[] buffer)
        {
            UIntPtr n;
            return Length(Native.kassen_state_legal_actions(handle, buffer, Cap(buffer), out n), n);
        }

        /// <summary>The legal action ids in a new array.</summary>
        public uint[] LegalActions()
        {
            uint[] buffer = new uint[game.NumDistinctActions];
            int n = LegalActions(buffer);
            Array.Resize(ref buffer, n);
            return buffer;
        }

        /// <summary>Fills `buffer` with one flag per action id (1 legal) and returns the mask length.</summary>
        public int LegalActionsMask(byte[] buffer)
        {
            UIntPtr n;
            return Length(Native.kassen_state_legal_actions_mask(handle, buffer, Cap(buffer), out n), n);
        }

        /// <summary>Applies `action` for whoever is to act. On failure the state is unchanged.</summary>
        public void ApplyAction(uint action)
        {
            Kassen.Check(Native.kassen_state_apply_in_place(handle, action));
        }

        /// <summary>One call per step, allocating nothing: applies `action` (as ApplyAction),
        /// writes the legal actions of the new state into `legalBuffer` and their number to
        /// `legalCount`, and returns the player to act next (a seat, Kassen.Chance or
        /// Kassen.Terminal). Size the buffer by Game.NumDistinctActions. On failure (including
        /// KASSEN_STATUS_BUFFER_TOO_SMALL) the state is unchanged.</summary>
        public int ApplyStep(uint action, uint[] legalBuffer, out int legalCount)
        {
            if (legalBuffer == null) throw new ArgumentNullException("legalBuffer");
            int next;
            UIntPtr n;
            Kassen.Check(Native.kassen_state_apply_step(handle, action, out next, legalBuffer, Cap(legalBuffer), out n));
            legalCount = (int)n.ToUInt32();
            return next;
        }

        /// <summary>The board as `player` (a seat or Kassen.Spectator) sees it, as an SVG document.</summary>
        public string RenderSvg(int player)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_render_svg(handle, player, out buf), ref buf);
        }

        /// <summary>A self-contained HTML page replaying this game as `player` (a seat or
        /// Kassen.Spectator) saw it: the board after every action, a slider and the player's
        /// event log. Only that player's views and events go into the page.</summary>
        public string ReplayHtml(int player)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_replay_html(handle, player, out buf), ref buf);
        }

        /// <summary>The perfect-recall information-state key of `player` (Kassen.Spectator:
        /// public information only): a stable 64-bit hash of the seat, every event it has seen
        /// and the player to act. Two states give the seat the same key exactly when they give
        /// it the same events and player to act (the key of a search tree's node).</summary>
        public ulong InfoStateKey(int player)
        {
            ulong key;
            Kassen.Check(Native.kassen_state_info_state_hash(handle, player, out key));
            return key;
        }

        /// <summary>The information state behind InfoStateKey as JSON:
        /// {"player", "current_player", "events"}.</summary>
        public string InfoStateJson(int player)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_info_state_json(handle, player, out buf), ref buf);
        }

        /// <summary>Plays `games` random games from this state to the end (uniformly random
        /// legal actions, chance by probability, all drawn from one generator seeded `seed`)
        /// and writes their returns row by row (`games * Game.NumPlayers` doubles) into
        /// `buffer`; returns that number. The state is unchanged; deterministic given `seed`.
        /// A buffer that is too small throws code 3 and nothing is played.</summary>
        public int RandomRollouts(ulong seed, int games, double[] buffer)
        {
            if (games < 0) throw new ArgumentOutOfRangeException("games");
            if (buffer == null) throw new ArgumentNullException("buffer");
            UIntPtr n;
            Kassen.Check(Native.kassen_state_random_rollouts(handle, seed, new UIntPtr((uint)games), buffer, Cap(buffer), out n));
            return checked((int)n.ToUInt64());
        }

        /// <summary>RandomRollouts into a new array: `games` rows of Game.NumPlayers returns.</summary>
        public double[] RandomRollouts(ulong seed, int games)
        {
            var buffer = new double[checked(games * game.NumPlayers)];
            RandomRollouts(seed, games, buffer);
            return buffer;
        }

        /// <summary>Applies `action` on behalf of `player` (Kassen.Chance for a chance outcome).</summary>
        public void ApplyActionAs(int player, uint action)
        {
            Kassen.Check(Native.kassen_state_apply_as(handle, player, action));
        }

        /// <summary>The pure transition: a new state after `action`; this one is unchanged.</summary>
        public State Child(uint action)
        {
            StateHandle s;
            Kassen.Check(Native.kassen_state_apply(handle, action, out s));
            return new State(s, game);
        }

        /// <summary>The outcomes of a chance node (empty elsewhere). Not for players' eyes.</summary>
        public ChanceOutcome[] ChanceOutcomes()
        {
            UIntPtr n;
            int status = Native.kassen_state_chance_outcomes(handle, null, null, UIntPtr.Zero, out n);
            if (status == Kassen.StatusOk) return new ChanceOutcome[0];
            if (status != Kassen.StatusBufferTooSmall) Kassen.Check(status);
            uint[] ids = new uint[(int)n.ToUInt64()];
            double[] probs = new double[ids.Length];
            Kassen.Check(Native.kassen_state_chance_outcomes(handle, ids, probs, Cap(ids), out n));
            ChanceOutcome[] outcomes = new ChanceOutcome[(int)n.ToUInt64()];
            for (int i = 0; i < outcomes.Length; i++)
            {
                outcomes[i].Action = ids[i];
                outcomes[i].Probability = probs[i];
            }
            return outcomes;
        }

        /// <summary>Fills `buffer` with every seat's return (0 until the end) and returns the seat count.</summary>
        public int Returns(double[] buffer)
        {
            UIntPtr n;
            return Length(Native.kassen_state_returns(handle, buffer, Cap(buffer), out n), n);
        }

        /// <summary>Every seat's return in a new array.</summary>
        public double[] Returns()
        {
            double[] buffer = new double[game.NumPlayers];
            Returns(buffer);
            return buffer;
        }

        /// <summary>The action log since the initial state. Not for players' eyes.</summary>
        public uint[] History()
        {
            UIntPtr n;
            int status = Native.kassen_state_history(handle, null, UIntPtr.Zero, out n);
            if (status == Kassen.StatusOk) return new uint[0];
            if (status != Kassen.StatusBufferTooSmall) Kassen.Check(status);
            uint[] buffer = new uint[(int)n.ToUInt64()];
            Kassen.Check(Native.kassen_state_history(handle, buffer, Cap(buffer), out n));
            return buffer;
        }

        /// <summary>Fills `buffer` with `player`'s observation tensor and returns its length. Allocates nothing.</summary>
        public int ObservationTensor(int player, float[] buffer)
        {
            UIntPtr n;
            return Length(Native.kassen_state_observation_tensor(handle, player, buffer, Cap(buffer), out n), n);
        }

        /// <summary>Fills `buffer` with `player`'s compact observation (Game.CompactLength bytes, laid out as
        /// compact_layout in the info JSON) and returns its length. Allocates nothing.</summary>
        public int CompactObservation(int player, byte[] buffer)
        {
            UIntPtr n;
            return Length(Native.kassen_state_compact_observation(handle, player, buffer, Cap(buffer), out n), n);
        }

        /// <summary>A short description of `action` (show a seat only its own legal actions).</summary>
        public string ActionToString(uint action)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_action_to_string(handle, action, out buf), ref buf);
        }

        /// <summary>`action` as a JSON object (show a seat only its own legal actions).</summary>
        public string ActionToJson(uint action)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_action_to_json(handle, action, out buf), ref buf);
        }

        /// <summary>What `player` (a seat or Kassen.Spectator) may know, as JSON.</summary>
        public string ViewJson(int player)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_view_json(handle, player, out buf), ref buf);
        }

        /// <summary>What `player` (a seat or Kassen.Spectator) knows as one text for a
        /// language-model agent, with its numbered legal moves where it is to act.</summary>
        public string TextObservation(int player)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_text_observation(handle, player, out buf), ref buf);
        }

        /// <summary>The legal action of `player` that `text` means (a move string, its number
        /// or a JSON action); throws KassenException (KASSEN_STATUS_UNREADABLE_MOVE) when it
        /// names none or several.</summary>
        public uint ParseMove(int player, string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            byte[] bytes = Utf8.ToBytes(text);
            uint action;
            Kassen.Check(Native.kassen_state_parse_move_n(handle, player, bytes, Utf8.Len(bytes), out action));
            return action;
        }

        /// <summary>The events `player` has seen, as a JSON array.</summary>
        public string EventsJson(int player)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_events_json(handle, player, out buf), ref buf);
        }

        /// <summary>The events of `player` from its `fromIndex`-th on (poll after each step).</summary>
        public string EventsSinceJson(int player, ulong fromIndex)
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_events_since_json(handle, player, fromIndex, out buf), ref buf);
        }

        /// <summary>The saved state (every seat's secrets: not for players' eyes).</summary>
        public string ToJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_to_json(handle, out buf), ref buf);
        }

        /// <summary>The current state as a position document (every seat's secrets: not for
        /// players' eyes); FromPosition loads it.</summary>
        public string ToPositionJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_to_position_json(handle, out buf), ref buf);
        }

        /// <summary>The current state as a position document written by name
        /// ("kassen-position-named-1": places, pieces, cards and seats as the rulebook names
        /// them; every seat's secrets: not for players' eyes); FromPosition loads it.</summary>
        public string ToNamedPositionJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_state_to_named_position_json(handle, out buf), ref buf);
        }

        /// <summary>Whether the game started at a constructed position (FromPosition or its save).</summary>
        public bool StartedAtPosition
        {
            get
            {
                byte yes;
                Kassen.Check(Native.kassen_state_started_at_position(handle, out yes));
                return yes != 0;
            }
        }

        /// <summary>The stable hash, identical in Rust, C, C++, C# and Python.</summary>
        public ulong StableHash()
        {
            ulong h;
            Kassen.Check(Native.kassen_state_hash(handle, out h));
            return h;
        }

        /// <summary>Same game, config, seed, action log and position.</summary>
        public bool Equals(State other)
        {
            if (other == null) return false;
            byte eq;
            Kassen.Check(Native.kassen_state_equal(handle, other.handle, out eq));
            return eq != 0;
        }

        public override bool Equals(object obj) { return Equals(obj as State); }
        public override int GetHashCode() { return StableHash().GetHashCode(); }

        public void Dispose() { handle.Dispose(); }

        /// <summary>Checks the status of a buffer-filling call and returns the length it wrote.</summary>
        private static int Length(int status, UIntPtr n)
        {
            Kassen.Check(status);
            return (int)n.ToUInt64();
        }

        private static UIntPtr Cap(Array buffer)
        {
            return buffer == null ? UIntPtr.Zero : new UIntPtr((uint)buffer.Length);
        }
    }
}
