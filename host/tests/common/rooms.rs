//! Places in memory, the one [`Places`] of the host's tests. Each opened place is `parent-N`,
//! counting up from 2 under each parent as the console does; every announcement posted and
//! every progress report shown is kept; a setting finds the channels the test added, each in
//! its server. The network's answers are the test's to choose
//! ([`Answer`]): it may refuse (403, as a bot that lost its permissions sees), fail for a while
//! (503), or never answer, separately for opening places and for posting.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use host::{ChannelMention, FoundChannel, Message, PlaceError, Places, Progress};

/// How the network answers a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// It does what is asked.
    Takes,
    /// 403: refused until a person acts (a permanent failure to the host).
    Refuses,
    /// 503 for the next `n` calls (`usize::MAX`: for ever), then it takes them again.
    Fails(usize),
    /// It never answers: the call never returns, as with a host that dies mid-call.
    Hangs,
}

impl Answer {
    /// The network's answer to one call; counts a failure off.
    async fn give(answer: &Mutex<Answer>, refusal: &str) -> Result<(), PlaceError> {
        let now = {
            let mut answer = answer.lock().unwrap();
            let now = *answer;
            if let Answer::Fails(n) = now {
                *answer = match n {
                    0 | 1 => Answer::Takes,
                    usize::MAX => Answer::Fails(usize::MAX),
                    n => Answer::Fails(n - 1),
                };
            }
            now
        };
        match now {
            Answer::Takes | Answer::Fails(0) => Ok(()),
            Answer::Refuses => Err(PlaceError::refused(refusal.to_string())),
            Answer::Fails(_) => Err("503 Service Unavailable".into()),
            Answer::Hangs => std::future::pending().await,
        }
    }
}

/// Places in memory; clones share them.
#[derive(Clone)]
pub struct Rooms {
    inner: Arc<RoomsInner>,
}

struct RoomsInner {
    opens: Mutex<Answer>,
    posts: Mutex<Answer>,
    open_attempts: AtomicU32,
    post_attempts: AtomicU32,
    /// How many places each parent has had opened under it.
    under: Mutex<HashMap<String, u32>>,
    opened: Mutex<Vec<(String, String)>>,
    posted: Mutex<Vec<Message>>,
    /// How many of `posted` [`Rooms::fresh`] has handed out.
    read: Mutex<usize>,
    progress: Mutex<Vec<Progress>>,
    progressed: tokio::sync::Notify,
    /// The channels a setting may name: each one's server, and whether it holds messages.
    channels: Mutex<HashMap<String, (String, bool)>>,
}

impl Default for Rooms {
    fn default() -> Rooms {
        Rooms {
            inner: Arc::new(RoomsInner {
                opens: Mutex::new(Answer::Takes),
                posts: Mutex::new(Answer::Takes),
                open_attempts: AtomicU32::new(0),
                post_attempts: AtomicU32::new(0),
                under: Mutex::default(),
                opened: Mutex::default(),
                posted: Mutex::default(),
                read: Mutex::new(0),
                progress: Mutex::default(),
                progressed: tokio::sync::Notify::new(),
                channels: Mutex::default(),
            }),
        }
    }
}

impl Rooms {
    /// From now on, asking for a place gets `answer`.
    pub fn opens(&self, answer: Answer) {
        *self.inner.opens.lock().unwrap() = answer;
    }

    /// From now on, posting an announcement gets `answer`.
    pub fn posts(&self, answer: Answer) {
        *self.inner.posts.lock().unwrap() = answer;
    }

    /// How many times the host tried to post an announcement, refused or not.
    pub fn post_attempts(&self) -> u32 {
        self.inner.post_attempts.load(Ordering::SeqCst)
    }

    /// How many times the host asked for a place, refused or not.
    pub fn open_attempts(&self) -> u32 {
        self.inner.open_attempts.load(Ordering::SeqCst)
    }

    /// The places opened so far: (their id, their title).
    pub fn opened(&self) -> Vec<(String, String)> {
        self.inner.opened.lock().unwrap().clone()
    }

    /// Every announcement posted so far, oldest first.
    pub fn posted(&self) -> Vec<Message> {
        self.inner.posted.lock().unwrap().clone()
    }

    /// The announcements posted since the last call, oldest first (all of them are still
    /// [`Rooms::posted`]).
    pub fn fresh(&self) -> Vec<Message> {
        let posted = self.inner.posted.lock().unwrap();
        let mut read = self.inner.read.lock().unwrap();
        let fresh = posted[*read..].to_vec();
        *read = posted.len();
        fresh
    }

    /// Every progress report shown so far.
    pub fn progress(&self) -> Vec<Progress> {
        self.inner.progress.lock().unwrap().clone()
    }

    /// Returns once a progress report is shown (at once if one was shown since the last wait).
    pub async fn progressed(&self) {
        self.inner.progressed.notified().await
    }

    /// A channel of `server` that a setting may name as `#channel`: its id is its name.
    pub fn add_channel(&self, server: &str, channel: &str) {
        self.inner.channels.lock().unwrap().insert(channel.into(), (server.into(), true));
    }

    /// A channel of `server` that holds no messages (a category).
    pub fn add_category(&self, server: &str, channel: &str) {
        self.inner.channels.lock().unwrap().insert(channel.into(), (server.into(), false));
    }
}

#[async_trait::async_trait]
impl Places for Rooms {
    async fn open_place(&self, parent_channel: &str, title: &str) -> Result<String, PlaceError> {
        self.inner.open_attempts.fetch_add(1, Ordering::SeqCst);
        Answer::give(&self.inner.opens, "403 Forbidden: Missing Permissions").await?;
        let n = {
            let mut under = self.inner.under.lock().unwrap();
            let n = under.entry(parent_channel.to_string()).or_insert(1);
            *n += 1;
            *n
        };
        let id = format!("{parent_channel}-{n}");
        self.inner.opened.lock().unwrap().push((id.clone(), title.to_string()));
        Ok(id)
    }

    async fn post(&self, message: &Message) -> Result<(), PlaceError> {
        self.inner.post_attempts.fetch_add(1, Ordering::SeqCst);
        Answer::give(&self.inner.posts, "403 Forbidden: Missing Access").await?;
        self.inner.posted.lock().unwrap().push(message.clone());
        Ok(())
    }

    fn progress(&self, progress: Progress) {
        self.inner.progress.lock().unwrap().push(progress);
        self.inner.progressed.notify_one();
    }

    /// `#name` is the channel `name` added with [`Rooms::add_channel`]; any other is unknown.
    async fn find_channel(&self, server: &str, named: &ChannelMention) -> Result<FoundChannel, PlaceError> {
        let Some(name) = named.as_str().strip_prefix('#') else { return Ok(FoundChannel::Unknown) };
        Ok(match self.inner.channels.lock().unwrap().get(name) {
            None => FoundChannel::Unknown,
            Some((of, _)) if of != server => FoundChannel::Elsewhere,
            Some((_, false)) => FoundChannel::NotForMessages,
            Some((_, true)) => FoundChannel::Here(name.to_string()),
        })
    }
}
