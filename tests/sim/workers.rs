//! The one web worker serves the explorer and the schedule search: neither protocol reads
//! the other's messages (postcard bytes of one once read as a message of the other, and
//! every worker run failed). Here because the two modules share a layer and may not name
//! each other.

use fencing_playground::explore::{self, wire::ToWorker};
use fencing_playground::search::wire::{self as search_wire, FromReplica, ToReplica};

#[test]
fn neither_worker_protocol_reads_the_others_messages() {
    let params = explore::wire::encode(&ToWorker::Params(explore::Params::default()));
    assert_eq!(search_wire::decode::<ToReplica>(&params), None);
    assert_eq!(search_wire::decode::<FromReplica>(&params), None);
    let chunk = explore::wire::encode(&ToWorker::Chunk(explore::Chunk { point: 0, index: 1 }));
    assert_eq!(search_wire::decode::<ToReplica>(&chunk), None);
    let run = search_wire::encode(&ToReplica::Run { level: 0, chunk: 1 });
    assert_eq!(explore::wire::decode::<ToWorker>(&run), None);
    assert_eq!(explore::wire::decode::<explore::wire::FromWorker>(&run), None);
    // Each still reads its own.
    assert!(explore::wire::decode::<ToWorker>(&params).is_some());
    assert!(search_wire::decode::<ToReplica>(&run).is_some());
}
