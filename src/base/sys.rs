//! Operating-system tuning the server does at start: glibc's allocator, the open-file
//! limit, the scheduling priority of background threads. Each is a no-op where it does not
//! apply.

/// Makes glibc's malloc give large blocks back to the system when they are freed.
///
/// Above `M_MMAP_THRESHOLD` a block is mapped on its own and unmapped on free; below, it comes
/// from a heap that rarely shrinks. glibc starts the threshold at 128 KiB but raises it by
/// itself (up to 32 MiB) after the first large free, so the brotli encoder's buffers of
/// start-up and of each minute's home page, and a burst of connections' buffers, would stay
/// resident for the life of the process. Holding glibc's own starting value fixed keeps the
/// resident set after a rush near the one before it (bench/README.md). Connection buffers
/// (at most 64 KiB, see `crate::server::accept`) stay below it. An operator's own
/// `MALLOC_MMAP_THRESHOLD_` wins; elsewhere than glibc there is nothing to do.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_MMAP_THRESHOLD_").is_none() {
        // SAFETY: mallopt only changes malloc's parameters; called before other threads exist.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        }
    }
}

/// Lowers the calling thread's scheduling priority (nice 10) for background work that must
/// not compete with the requests being served. Linux applies `setpriority` to one thread when
/// given its id (0: the caller); elsewhere nothing changes.
pub fn lower_thread_priority() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: setpriority only changes the calling thread's nice value.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Raises the soft open-file limit to the hard one, logs both, and returns the soft limit in
/// force afterwards (1024 when it cannot be read: the common default).
pub fn raise_open_file_limit() -> u64 {
    #[cfg(unix)]
    {
        let before = rlimit::Resource::NOFILE.get();
        let raised = rlimit::increase_nofile_limit(u64::MAX);
        match (before, raised) {
            (Ok((soft, hard)), Ok(now)) => {
                tracing::info!(soft_before = soft, soft = now, hard, "open-file limit");
                now
            }
            (before, raised) => {
                tracing::warn!(?before, ?raised, "open-file limit could not be read or raised");
                before.map(|(soft, _)| soft).unwrap_or(1024)
            }
        }
    }
    #[cfg(not(unix))]
    {
        1024
    }
}
