// An IS-MCTS search on worker threads (kassen_search), for user interfaces.
using System;

namespace Kassen
{
    /// <summary>An IS-MCTS search running on the library's worker threads: Start returns at
    /// once, Poll and Stop never block (call them from the UI thread, e.g. once a frame), Wait
    /// and ResultJson block until the search ends. Poll, Stop, Wait and ResultJson may be
    /// called from several threads at once (Poll on the UI thread while another thread Waits
    /// answers "running" or "done", never throws). It searches its own copy of the state.
    /// Dispose stops the search and waits for its threads.</summary>
    public sealed class Search : IDisposable
    {
        private readonly SearchHandle handle;

        private Search(SearchHandle handle) { this.handle = handle; }

        /// <summary>Starts searching for the player to act in `state`. `paramsJson` (null or
        /// "": the normal level) is {"level": "easy" | "normal" | "hard"} overridden by any of
        /// "iterations", "time_ms" (null: no limit), "threads", "determinizations",
        /// "exploration" (UCB1's constant; by default the game's own, 0.7 in most games),
        /// "max_nodes" (the tree's node budget), "explain" (default true: each
        /// candidate's line and reason). Bad parameters throw code 101
        /// (KASSEN_STATUS_INVALID_CONFIG), a budget above its cap (10^9 iterations, 24 h,
        /// 10^9 nodes) code 102, a finished game code 203, a thread the system refuses code
        /// 8 (KASSEN_STATUS_THREADS_UNAVAILABLE).</summary>
        public static Search Start(State state, string paramsJson, ulong seed)
        {
            if (state == null) throw new ArgumentNullException("state");
            byte[] bytes = Utf8.ToBytes(paramsJson ?? "");
            SearchHandle h;
            Kassen.Check(Native.kassen_search_start_n(state.Handle, bytes, Utf8.Len(bytes), seed, out h));
            return new Search(h);
        }

        /// <summary>What the search has done so far; never blocks.</summary>
        public SearchProgress Poll()
        {
            SearchProgress p;
            Kassen.Check(Native.kassen_search_poll(handle, out p));
            return p;
        }

        /// <summary>Asks the search to end after its current iteration; never blocks.</summary>
        public void Stop() { Kassen.Check(Native.kassen_search_stop(handle)); }

        /// <summary>Blocks until the search ends; the chosen action.</summary>
        public uint Wait()
        {
            uint action;
            Kassen.Check(Native.kassen_search_wait(handle, out action));
            return action;
        }

        /// <summary>Blocks until the search ends; its decision as JSON ({"seat", "action",
        /// "iterations", "elapsed_ms", "candidates": [{"action", "visits", "value", "line",
        /// "reason"}]}; "reason": a short text from the game's event sentences of the candidate
        /// and the seat's moves the search expects after it, see kassen_search_result_json).</summary>
        public string ResultJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_search_result_json(handle, out buf), ref buf);
        }

        public void Dispose() { handle.Dispose(); }
    }
}
