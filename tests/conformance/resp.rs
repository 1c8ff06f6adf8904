//! A minimal RESP2 client for the conformance tests: send arguments, read one reply.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use fencing_playground::sim::redis::Reply;

pub(crate) struct Conn {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Conn {
    /// Connects and selects database `db`: tests run in parallel, each on its own database.
    pub(crate) fn connect(port: u16, db: u8) -> Conn {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .unwrap_or_else(|e| panic!("cannot reach redis-server on 127.0.0.1:{port}: {e}"));
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut conn = Conn { reader: BufReader::new(stream.try_clone().unwrap()), writer: stream };
        assert_eq!(conn.call(&["SELECT".to_owned(), db.to_string()]), Reply::Ok);
        conn
    }

    /// Connects without selecting a database (a cluster node has only database 0).
    pub(crate) fn connect_cluster(port: u16) -> Conn {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .unwrap_or_else(|e| panic!("cannot reach the cluster node on 127.0.0.1:{port}: {e}"));
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        Conn { reader: BufReader::new(stream.try_clone().unwrap()), writer: stream }
    }

    pub(crate) fn call(&mut self, args: &[String]) -> Reply {
        let mut out = format!("*{}\r\n", args.len()).into_bytes();
        for arg in args {
            out.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
            out.extend_from_slice(arg.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        self.writer.write_all(&out).unwrap();
        self.read_reply()
    }

    fn line(&mut self) -> String {
        let mut line = Vec::new();
        self.reader.read_until(b'\n', &mut line).unwrap();
        String::from_utf8_lossy(&line).trim_end_matches(['\r', '\n']).to_owned()
    }

    fn read_reply(&mut self) -> Reply {
        let line = self.line();
        let (tag, rest) = line.split_at(1);
        match tag {
            "+" if rest == "OK" => Reply::Ok,
            "+" => Reply::Bulk(rest.to_owned()),
            "-" => Reply::Error(rest.to_owned()),
            ":" => Reply::Int(rest.parse().unwrap()),
            "$" => {
                let len: i64 = rest.parse().unwrap();
                if len < 0 {
                    return Reply::Nil;
                }
                let mut body = vec![0u8; usize::try_from(len).unwrap() + 2];
                self.reader.read_exact(&mut body).unwrap();
                body.truncate(body.len() - 2);
                Reply::Bulk(String::from_utf8_lossy(&body).into_owned())
            }
            "*" => {
                let n: i64 = rest.parse().unwrap();
                if n < 0 {
                    return Reply::Nil;
                }
                Reply::Array((0..n).map(|_| self.read_reply()).collect())
            }
            other => panic!("unexpected RESP reply {other:?}{rest:?}"),
        }
    }
}
