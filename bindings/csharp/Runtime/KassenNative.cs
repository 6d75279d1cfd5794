// P/Invoke declarations of the kassen C ABI (include/kassen.h). Internal: use Game and State.
using System;
using System.Runtime.InteropServices;

namespace Kassen
{
    /// <summary>kassen_buf: bytes owned by the library, released with kassen_buf_free.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct KassenBuf
    {
        public IntPtr Data;
        public UIntPtr Len;
    }

    /// <summary>kassen_batch_dims.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct KassenBatchDims
    {
        public UIntPtr NumEnvs, NumPlayers, NumActions, ObsLen;
        public byte ObsUint8;
        public UIntPtr MaxLegalActions;
        public byte ObsCompact;
    }

    /// <summary>kassen_batch_out: caller-owned (pinned) arrays and their lengths.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct KassenBatchOut
    {
        public IntPtr ObsF32, ObsU8;
        public UIntPtr ObsLen;
        public IntPtr Mask;
        public UIntPtr MaskLen;
        public IntPtr Player;
        public UIntPtr PlayerLen;
        public IntPtr Rewards;
        public UIntPtr RewardsLen;
        public IntPtr Terminated;
        public UIntPtr TerminatedLen;
        public IntPtr Truncated;
        public UIntPtr TruncatedLen;
        public IntPtr FinalReturns;
        public UIntPtr FinalReturnsLen;
        public IntPtr EpisodeLen;
        public UIntPtr EpisodeLenLen;
        // The optional legal-id lists (left NULL: not written).
        public IntPtr LegalCount;
        public UIntPtr LegalCountLen;
        public IntPtr LegalIds;
        public UIntPtr LegalIdsLen;
    }

    /// <summary>kassen_search_progress: what a running search has done so far.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SearchProgress
    {
        /// <summary>Iterations done so far, over every thread.</summary>
        public ulong Iterations;
        /// <summary>The most visited action so far, or -1 before the first is known.</summary>
        public long BestAction;
        /// <summary>1 once the search has ended, else 0.</summary>
        public byte Done;
        /// <summary>Wall time since the start, in milliseconds.</summary>
        public double ElapsedMs;
    }

    internal static class Native
    {
#if UNITY_IOS && !UNITY_EDITOR
        // iOS links the static library into the app: symbols are looked up in the process.
        internal const string Lib = "__Internal";
#else
        // libkassen.so (Linux, Android), kassen.dll (Windows), kassen.bundle / libkassen.dylib (macOS).
        internal const string Lib = "kassen";
#endif

        // Every `const char *` the library returns (kassen_version, kassen_status_name,
        // kassen_last_error_message) is declared IntPtr and decoded by Utf8.FromCString. Never
        // declare one as returning `string`: the marshaller would free the library's own static
        // or per-thread string, which aborts Mono (and corrupts the heap elsewhere).
        [DllImport(Lib)] internal static extern IntPtr kassen_version();
        [DllImport(Lib)] internal static extern uint kassen_abi_version();
        [DllImport(Lib)] internal static extern IntPtr kassen_last_error_message();
        [DllImport(Lib)] internal static extern IntPtr kassen_status_name(int status);
        [DllImport(Lib)] internal static extern void kassen_buf_free(ref KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_games_json(out KassenBuf buf);

        [DllImport(Lib)] internal static extern int kassen_game_new_n(byte[] id, UIntPtr idLen, byte[] configJson, UIntPtr configLen, out GameHandle game);
        [DllImport(Lib)] internal static extern void kassen_game_free(IntPtr game);
        [DllImport(Lib)] internal static extern int kassen_game_info_json(GameHandle game, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_game_num_players(GameHandle game, out uint n);
        [DllImport(Lib)] internal static extern int kassen_game_num_distinct_actions(GameHandle game, out uint n);
        [DllImport(Lib)] internal static extern int kassen_game_observation_len(GameHandle game, out UIntPtr n);
        [DllImport(Lib)] internal static extern int kassen_game_compact_len(GameHandle game, out UIntPtr n);

        [DllImport(Lib)] internal static extern int kassen_batch_new_n(GameHandle game, byte[] optionsJson, UIntPtr optionsLen, out BatchHandle batch);
        [DllImport(Lib)] internal static extern void kassen_batch_free(IntPtr batch);
        [DllImport(Lib)] internal static extern int kassen_batch_get_dims(BatchHandle batch, out KassenBatchDims dims);
        [DllImport(Lib)] internal static extern int kassen_batch_reset(BatchHandle batch, IntPtr seed, ref KassenBatchOut output);
        [DllImport(Lib)] internal static extern int kassen_batch_reset(BatchHandle batch, ref ulong seed, ref KassenBatchOut output);
        [DllImport(Lib)] internal static extern int kassen_batch_step(BatchHandle batch, uint[] actions, UIntPtr numActions, ref KassenBatchOut output);
        [DllImport(Lib)] internal static extern ulong kassen_batch_episode_seed(ulong seed, UIntPtr slot, ulong episode);

        [DllImport(Lib)] internal static extern int kassen_state_new(GameHandle game, ulong seed, out StateHandle state);
        [DllImport(Lib)] internal static extern void kassen_state_free(IntPtr state);
        [DllImport(Lib)] internal static extern int kassen_state_clone(StateHandle state, out StateHandle copy);
        [DllImport(Lib)] internal static extern int kassen_state_game(StateHandle state, out GameHandle game);
        [DllImport(Lib)] internal static extern int kassen_state_current_player(StateHandle state, out int player);
        [DllImport(Lib)] internal static extern int kassen_state_is_terminal(StateHandle state, out byte over);
        [DllImport(Lib)] internal static extern int kassen_state_legal_actions(StateHandle state, uint[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_legal_actions_mask(StateHandle state, byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_apply(StateHandle state, uint action, out StateHandle child);
        [DllImport(Lib)] internal static extern int kassen_state_apply_in_place(StateHandle state, uint action);
        [DllImport(Lib)] internal static extern int kassen_state_apply_step(StateHandle state, uint action, out int nextPlayer, uint[] legal, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_render_svg(StateHandle state, int player, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_game_render_view_svg_n(GameHandle game, byte[] viewJson, UIntPtr viewLen, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_replay_html(StateHandle state, int player, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_info_state_hash(StateHandle state, int player, out ulong hash);
        [DllImport(Lib)] internal static extern int kassen_state_info_state_json(StateHandle state, int player, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_random_rollouts(StateHandle state, ulong seed, UIntPtr n, double[] buf, UIntPtr cap, out UIntPtr len);

        [DllImport(Lib)] internal static extern int kassen_bot_new_random(ulong seed, out BotHandle bot);
        [DllImport(Lib)] internal static extern int kassen_bot_new_monte_carlo(ulong seed, uint playouts, out BotHandle bot);
        [DllImport(Lib)] internal static extern void kassen_bot_free(IntPtr bot);
        [DllImport(Lib)] internal static extern int kassen_bot_choose(BotHandle bot, StateHandle state, out uint action);
        [DllImport(Lib)] internal static extern int kassen_bot_new_n(byte[] spec, UIntPtr specLen, ulong seed, out BotHandle bot);
        [DllImport(Lib)] internal static extern int kassen_bots_json(out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_bot_last_decision_json(BotHandle bot, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_search_start_n(StateHandle state, byte[] paramsJson, UIntPtr paramsLen, ulong seed, out SearchHandle search);
        [DllImport(Lib)] internal static extern int kassen_search_poll(SearchHandle search, out SearchProgress progress);
        [DllImport(Lib)] internal static extern int kassen_search_stop(SearchHandle search);
        [DllImport(Lib)] internal static extern int kassen_search_wait(SearchHandle search, out uint action);
        [DllImport(Lib)] internal static extern int kassen_search_result_json(SearchHandle search, out KassenBuf buf);
        [DllImport(Lib)] internal static extern void kassen_search_free(IntPtr search);
        [DllImport(Lib)] internal static extern int kassen_state_apply_as(StateHandle state, int player, uint action);
        [DllImport(Lib)] internal static extern int kassen_state_chance_outcomes(StateHandle state, uint[] ids, double[] probs, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_returns(StateHandle state, double[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_history(StateHandle state, uint[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_action_to_string(StateHandle state, uint action, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_action_to_json(StateHandle state, uint action, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_view_json(StateHandle state, int player, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_text_observation(StateHandle state, int player, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_parse_move_n(StateHandle state, int player, byte[] text, UIntPtr len, out uint action);
        [DllImport(Lib)] internal static extern int kassen_game_rules_primer(GameHandle game, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_events_json(StateHandle state, int player, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_events_since_json(StateHandle state, int player, ulong fromIndex, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_observation_tensor(StateHandle state, int player, float[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_compact_observation(StateHandle state, int player, byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] internal static extern int kassen_state_to_json(StateHandle state, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_from_json_n(byte[] json, UIntPtr len, out StateHandle state);
        [DllImport(Lib)] internal static extern int kassen_state_from_position_n(byte[] json, UIntPtr len, out StateHandle state);
        [DllImport(Lib)] internal static extern int kassen_game_load_position_n(GameHandle game, byte[] json, UIntPtr len, out StateHandle state);
        [DllImport(Lib)] internal static extern int kassen_state_to_position_json(StateHandle state, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_to_named_position_json(StateHandle state, out KassenBuf buf);
        [DllImport(Lib)] internal static extern int kassen_state_started_at_position(StateHandle state, out byte yes);
        [DllImport(Lib)] internal static extern int kassen_state_hash(StateHandle state, out ulong hash);
        [DllImport(Lib)] internal static extern int kassen_state_equal(StateHandle a, StateHandle b, out byte equal);
    }
}
