// Batch: N states of one game stepped by one call into arrays allocated and pinned once.
using System;
using System.Runtime.InteropServices;

namespace Kassen
{
    /// <summary>N states of one game stepped together (kassen_batch). The output arrays are
    /// allocated and pinned once, when the batch is created; Reset and Step write into them
    /// and allocate nothing. Same-step autoreset: an env whose episode ended this step already
    /// shows the first decision of its next episode.</summary>
    public sealed class Batch : IDisposable
    {
        private readonly BatchHandle handle;
        private readonly GCHandle[] pins;
        private KassenBatchOut output;

        /// <summary>Creates a batch of `game` from `optionsJson`, as kassen_batch_new takes it,
        /// e.g. {"num_envs": 64, "seed": 1, "obs_dtype": "uint8"}.</summary>
        public Batch(Game game, string optionsJson)
        {
            if (game == null) throw new ArgumentNullException("game");
            if (optionsJson == null) throw new ArgumentNullException("optionsJson");
            byte[] options = Utf8.ToBytes(optionsJson);
            Kassen.Check(Native.kassen_batch_new_n(game.Handle, options, Utf8.Len(options), out handle));
            KassenBatchDims d;
            Kassen.Check(Native.kassen_batch_get_dims(handle, out d));
            NumEnvs = (int)d.NumEnvs.ToUInt32();
            NumPlayers = (int)d.NumPlayers.ToUInt32();
            NumActions = (int)d.NumActions.ToUInt32();
            ObservationLength = (int)d.ObsLen.ToUInt32();
            MaxLegalActions = (int)d.MaxLegalActions.ToUInt32();
            int obs = NumEnvs * ObservationLength;
            Observations = new float[d.ObsUint8 != 0 ? 0 : obs];
            ObservationsUint8 = new byte[d.ObsUint8 != 0 ? obs : 0];
            Mask = new byte[NumEnvs * NumActions];
            Player = new int[NumEnvs];
            Rewards = new float[NumEnvs * NumPlayers];
            Terminated = new byte[NumEnvs];
            Truncated = new byte[NumEnvs];
            FinalReturns = new float[NumEnvs * NumPlayers];
            EpisodeLength = new uint[NumEnvs];
            LegalCount = new uint[NumEnvs];
            LegalIds = new uint[NumEnvs * MaxLegalActions];
            Array[] arrays = { Observations, ObservationsUint8, Mask, Player, Rewards, Terminated, Truncated, FinalReturns, EpisodeLength,
                               LegalCount, LegalIds };
            pins = new GCHandle[arrays.Length];
            for (int i = 0; i < arrays.Length; i++) pins[i] = GCHandle.Alloc(arrays[i], GCHandleType.Pinned);
            bool u8 = d.ObsUint8 != 0;
            output = new KassenBatchOut
            {
                ObsF32 = u8 ? IntPtr.Zero : Address(0),
                ObsU8 = u8 ? Address(1) : IntPtr.Zero,
                ObsLen = new UIntPtr((uint)obs),
                Mask = Address(2), MaskLen = new UIntPtr((uint)Mask.Length),
                Player = Address(3), PlayerLen = new UIntPtr((uint)Player.Length),
                Rewards = Address(4), RewardsLen = new UIntPtr((uint)Rewards.Length),
                Terminated = Address(5), TerminatedLen = new UIntPtr((uint)Terminated.Length),
                Truncated = Address(6), TruncatedLen = new UIntPtr((uint)Truncated.Length),
                FinalReturns = Address(7), FinalReturnsLen = new UIntPtr((uint)FinalReturns.Length),
                EpisodeLen = Address(8), EpisodeLenLen = new UIntPtr((uint)EpisodeLength.Length),
                LegalCount = Address(9), LegalCountLen = new UIntPtr((uint)LegalCount.Length),
                LegalIds = Address(10), LegalIdsLen = new UIntPtr((uint)LegalIds.Length),
            };
        }

        public int NumEnvs { get; private set; }
        public int NumPlayers { get; private set; }
        /// <summary>The length of one mask row (the game's NumDistinctActions).</summary>
        public int NumActions { get; private set; }
        /// <summary>Elements of one observation.</summary>
        public int ObservationLength { get; private set; }
        /// <summary>The width of one LegalIds row: the game's max_legal_actions.</summary>
        public int MaxLegalActions { get; private set; }

        /// <summary>NumEnvs rows of ObservationLength floats (empty for a uint8 batch).</summary>
        public float[] Observations { get; private set; }
        /// <summary>NumEnvs rows of ObservationLength bytes (empty for a float batch).</summary>
        public byte[] ObservationsUint8 { get; private set; }
        /// <summary>NumEnvs rows of NumActions flags, 1 where the action is legal. Step clears
        /// only the flags it set in the previous call: do not write into this array.</summary>
        public byte[] Mask { get; private set; }
        /// <summary>The seat to act in each env.</summary>
        public int[] Player { get; private set; }
        /// <summary>NumEnvs rows of NumPlayers: the change of the returns this step.</summary>
        public float[] Rewards { get; private set; }
        public byte[] Terminated { get; private set; }
        public byte[] Truncated { get; private set; }
        /// <summary>NumEnvs rows of NumPlayers: the returns of an episode that just ended, else 0.</summary>
        public float[] FinalReturns { get; private set; }
        /// <summary>The steps of an episode that just ended, else 0.</summary>
        public uint[] EpisodeLength { get; private set; }
        /// <summary>The number of legal actions in each env.</summary>
        public uint[] LegalCount { get; private set; }
        /// <summary>NumEnvs rows of MaxLegalActions: each env's legal actions in ascending order
        /// (the first LegalCount[i] entries of row i), for sampling without scanning the mask.</summary>
        public uint[] LegalIds { get; private set; }

        /// <summary>Starts the next episode in every env and writes the first observations.</summary>
        public void Reset()
        {
            Kassen.Check(Native.kassen_batch_reset(handle, IntPtr.Zero, ref output));
        }

        /// <summary>Reseeds the batch (episode counts restart at 0) and starts every env.</summary>
        public void Reset(ulong seed)
        {
            Kassen.Check(Native.kassen_batch_reset(handle, ref seed, ref output));
        }

        /// <summary>Applies `actions[i]` to env i (NumEnvs actions); on failure nothing changes.</summary>
        public void Step(uint[] actions)
        {
            if (actions == null) throw new ArgumentNullException("actions");
            Kassen.Check(Native.kassen_batch_step(handle, actions, new UIntPtr((uint)actions.Length), ref output));
        }

        /// <summary>The seed of env `slot`'s `episode`-th episode in a batch seeded `seed`
        /// (Game.NewInitialState of it replays the episode).</summary>
        public static ulong EpisodeSeed(ulong seed, int slot, ulong episode)
        {
            return Native.kassen_batch_episode_seed(seed, new UIntPtr((uint)slot), episode);
        }

        public void Dispose()
        {
            handle.Dispose();
            Unpin();
            GC.SuppressFinalize(this);
        }

        ~Batch() { Unpin(); }

        private void Unpin()
        {
            if (pins == null) return;
            for (int i = 0; i < pins.Length; i++) if (pins[i].IsAllocated) pins[i].Free();
        }

        private IntPtr Address(int i) { return pins[i].AddrOfPinnedObject(); }
    }
}
